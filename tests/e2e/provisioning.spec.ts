/**
 * Issue 41, "Provisioning (SCIM 2.0)": an administrator opens Configure → Systems → 'Laboratory Information
 * System (demo)' (seeded with an enabled connection to the stack's scim2-server), runs 'Test Connection' and sees
 * it works; a person made for this journey is granted the system through the API (the access-records writer
 * notes the provisioning), and their Access tab turns from 'Pending' to 'In sync' once the worker has created
 * the account; 'Reconcile Now' (after its confirmation) runs to a report the administrator reads, in which that
 * person is no difference. Axe and the beyond-axe checks at desktop and phone sizes.
 */
import { expect, test, type Page } from '@playwright/test';
import type { StudyRole } from '@portal/contract';
import { journeyPrisma, makeJourneyUser, type JourneyUser } from '../support/journey-users';
import { shot, signIn } from './support';

const LIS = 'Laboratory Information System (demo)';
const ROLE = 'Clinical Research Associate';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Checks the screen at desktop size, then at phone size, then goes back to desktop. */
async function bothSizes(page: Page, name: string): Promise<void> {
  await shot(page, `provisioning-${name}`);
  await page.setViewportSize(PHONE);
  await shot(page, `provisioning-${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** A person with no access yet, and the site and study a Clinical Research Associate of theirs may hold. */
async function makePerson(): Promise<{ person: JourneyUser; siteCode: string; studyName: string }> {
  const prisma = journeyPrisma();
  try {
    const relation = await prisma.siteRelation.findFirstOrThrow({
      where: { laoCode: 'MA036', active: true, NOT: { siteCode: 'MA036' } },
      orderBy: { id: 'asc' },
    });
    const person = await makeJourneyUser(prisma, 'prov');
    return { person, siteCode: relation.siteCode, studyName: relation.studyName };
  } finally {
    await prisma.$disconnect();
  }
}

/** The demo LIS's id from the public systems list (the request forms' reference data), or null. */
async function lisSystemId(page: Page): Promise<number | null> {
  const systems = (await (await page.request.get('/rest/public/user_registration/system_accesses/')).json()) as {
    id: number;
    systemName: string;
  }[];
  return systems.find((s) => s.systemName === LIS)?.id ?? null;
}

/**
 * Grants `person` the study role with its systems, the demo LIS among them, as the Access tab's save does
 * (PUT user_access/user/{id}: the one writer of access records, which notes the provisioning).
 */
async function grantLis(page: Page, person: JourneyUser, siteCode: string, studyName: string): Promise<void> {
  const xsrf = await page.evaluate(() => localStorage.getItem('xsrfToken'));
  const headers = { 'x-xsrf-token': xsrf ?? '' };
  const roles = (await (await page.request.get('/rest/public/user_registration/study_roles/')).json()) as StudyRole[];
  const role = roles.find((r) => r.roleName === ROLE)!;
  const lis = await lisSystemId(page);
  expect(lis, `the seed registers '${LIS}'`).not.toBeNull();
  const systemAccessIds = [...new Set([...role.systemAccessIds, lis!])];
  const granted = await page.request.put(`/rest/secure/user_access/user/${person.id}`, {
    headers,
    data: { userAccesses: [{ roleName: ROLE, siteCodes: [siteCode], studyNames: [studyName], systemAccessIds }] },
  });
  expect(granted.status(), await granted.text()).toBe(200);
}

test('an administrator tests the LIS connection, sees a granted person in sync and reads a reconciliation', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  const { person, siteCode, studyName } = await makePerson();
  await signIn(page, 'admin');
  const section = page.getByRole('region', { name: 'Provisioning (SCIM)' });
  let systemPath = '';

  await test.step("Configure → Systems → the LIS: 'Test Connection' works", async () => {
    // Fails at once, not at the test's timeout, on a stack whose seed has no demo LIS.
    expect(await lisSystemId(page), `the seed registers '${LIS}'`).not.toBeNull();
    await page.goto('/app/configure/?tab=systems');
    await page.getByRole('textbox', { name: 'Filter systems' }).fill(LIS);
    await page.getByRole('link', { name: LIS, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Edit System', level: 1 })).toBeVisible();
    systemPath = new URL(page.url()).pathname;
    await expect(section.getByRole('textbox', { name: 'SCIM base URL' })).not.toHaveValue('');
    // The stored token is never in the page: the field is empty and says blank keeps it.
    await expect(section.getByLabel('Bearer token')).toHaveValue('');
    await expect(section.getByText(/Leave blank to keep the stored token\./)).toBeVisible();
    await expect(section.getByRole('switch', { name: /^Provisioning on/ })).toBeChecked();
    await section.getByRole('button', { name: 'Test Connection' }).click();
    await expect(section.getByText(/^Connection works/)).toBeVisible({ timeout: 30_000 });
    await expect(section.getByText(/^Last test: /)).toBeVisible();
    await bothSizes(page, '01-system-tested');
  });

  await test.step("a person granted the LIS reads 'In sync' on the Access tab", async () => {
    await grantLis(page, person, siteCode, studyName);
    await page.goto(`/app/users/${person.id}?tab=access`);
    const table = page.getByRole('table', { name: 'Provisioned systems' });
    const row = table.getByRole('row').filter({ hasText: LIS });
    // The tab re-reads every 2 s while the account is Pending; a reload covers a first read before the notice.
    await expect(async () => {
      if (!(await table.isVisible())) await page.reload();
      await expect(row).toContainText('In sync', { timeout: 10_000 });
    }).toPass({ timeout: 120_000, intervals: [1_000] });
    await expect(row).toContainText('Active');
    await expect(row.getByRole('button', { name: `Re-sync ${LIS}` })).toBeVisible();
    await bothSizes(page, '02-access-in-sync');
  });

  await test.step("'Reconcile Now' after its confirmation, and its report", async () => {
    await page.goto(systemPath);
    await section.getByRole('button', { name: 'Reconcile Now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reconcile now?' });
    await expect(confirm.getByText(/nothing is changed at the target/)).toBeVisible();
    await shot(page, 'provisioning-03-reconcile-confirm');
    await confirm.getByRole('button', { name: 'Reconcile Now' }).click();
    await expect(page.getByText('Reconciliation started').first()).toBeVisible();
    const report = section.getByRole('region', { name: /^Report of run #\d+$/ });
    await expect(report).toBeVisible();
    await expect(report.getByText('Done', { exact: true })).toBeVisible({ timeout: 120_000 });
    await expect(report.getByText(/accounts at the target, \d+ in the portal/)).toBeVisible();
    // The person just provisioned is no difference: their account is what the portal says.
    const differences = report.getByRole('table', { name: 'Differences' });
    if (await differences.isVisible()) await expect(differences).not.toContainText(person.username);
    else await expect(report.getByText(/^No differences/)).toBeVisible();
    await expect(report.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
    const runId = /#(\d+)/.exec((await report.getByRole('heading').textContent()) ?? '')![1];
    await expect(
      section
        .getByRole('table', { name: 'Reconciliation runs' })
        .getByRole('button', { name: `Report of run #${runId}` }),
    ).toBeVisible();
    await bothSizes(page, '04-reconciliation-report');
  });
});
