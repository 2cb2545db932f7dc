/**
 * Audit Integrity (docs/decisions.md "A tamper-evident audit trail"): an administrator opens it from the
 * Administration navigation, sees the state before (or the last verification), presses 'Verify now', sees it
 * verifying and then the trail intact with what was verified; a reviewer gets no navigation item and the
 * not-authorized page at the address. Axe and the beyond-axe checks at desktop and phone sizes.
 */
import { expect, type Page, test } from '@playwright/test';
import { AUDIT_INTEGRITY_TEXTS as T, type AuditIntegrity, type Profile, type StudyRole } from '@portal/contract';
import { shot, signIn, signOut } from './support';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Checks the screen at desktop size, then at phone size, then goes back to desktop. */
async function bothSizes(page: Page, name: string): Promise<void> {
  await shot(page, `audit-integrity-${name}`);
  await page.setViewportSize(PHONE);
  await shot(page, `audit-integrity-${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/**
 * Files a request through the API (audited), then waits until the stack's seal schedule (every minute) has
 * sealed every entry: the verification then has rows and seals to count.
 */
async function auditedAndSealed(page: Page): Promise<void> {
  const xsrf = await page.evaluate(() => localStorage.getItem('xsrfToken'));
  const headers = { 'x-xsrf-token': xsrf ?? '' };
  const profile = (await (await page.request.get('/rest/secure/user_profile', { headers })).json()) as Profile;
  const roles = (await (await page.request.get('/rest/public/user_registration/study_roles/')).json()) as StudyRole[];
  const held = new Set(profile.userAccesses.map((a) => a.roleName));
  const role = roles.find((r) => !r.siteRequired && !r.studyRequired && !held.has(r.roleName))!;
  const filed = await page.request.post('/rest/secure/user_access_mod_request', {
    headers,
    data: {
      portalUserId: profile.portalUserId,
      requestType: 'NEW',
      accessControls: [{ roleName: role.roleName, systemAccessIds: role.systemAccessIds }],
      requesterComments: 'Audit integrity journey',
    },
  });
  expect(filed.status()).toBe(200);
  await expect(async () => {
    const state = (await (
      await page.request.get('/rest/secure/audit_integrity', { headers })
    ).json()) as AuditIntegrity;
    expect(state.newestSeal).not.toBeNull();
  }).toPass({ timeout: 150_000, intervals: [2_000] });
}

test('an administrator verifies the audit trail; a reviewer is refused', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'admin');

  await test.step('Audit Integrity opens from the navigation and the Audit Trail', async () => {
    await page.getByRole('link', { name: 'Audit Trail', exact: true }).click();
    await page
      .getByRole('link', { name: /Audit Integrity/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/app\/audit-trail\/integrity$/);
    await expect(page.getByRole('heading', { name: T.title, level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${T.title}`));
    await page.goto('/app/dashboard');
    await page.getByRole('link', { name: 'Audit Integrity', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Last verification' })).toBeVisible();
    await expect(page.getByText('Newest seal:')).toBeVisible();
    await bothSizes(page, 'before');
  });

  await test.step('an audited change is sealed by the schedule', async () => {
    await auditedAndSealed(page);
    await page.reload();
    await expect(page.getByText(/Newest seal: #\d+/)).toBeVisible();
  });

  await test.step('Verify now shows progress, then the trail intact with the counts', async () => {
    const verify = page.getByRole('button', { name: T.verifyNow });
    await verify.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(T.verifying)).toBeVisible();
    await expect(verify).toBeDisabled();
    const intact = page.getByRole('status').filter({ hasText: T.intact });
    await expect(intact).toBeVisible({ timeout: 60_000 });
    await expect(intact).toContainText('by admin');
    await expect(intact).toContainText(/[1-9][\d,]* entr(y|ies) in [1-9][\d,]* seals?/);
    await expect(page.getByText(T.noFindings)).toBeVisible();
    await expect(page.getByText(T.verifying)).toHaveCount(0);
    await expect(verify).toBeEnabled();
    await bothSizes(page, 'intact');
  });

  await test.step('a changed trail is a danger alert with its findings (answer stubbed in the browser)', async () => {
    // The stack's trail is never tampered with (the integration tests change a copy): the browser is given a
    // changed trail's answer, so the screen's danger state is checked like the others.
    const url = '**/rest/secure/audit_integrity';
    await page.route(url, async (route) => {
      const real = (await (await route.fetch()).json()) as AuditIntegrity;
      const changed: AuditIntegrity = {
        ...real,
        lastVerification: {
          ...real.lastVerification!,
          ok: false,
          findingsTotal: 2,
          findings: [
            {
              kind: 'ROW_CHANGED',
              rowId: '1',
              sealId: '1',
              from: real.newestSeal!.sealedAt,
              to: real.newestSeal!.sealedAt,
              detail: 'row 1 is not the row seal 1 recorded',
            },
            { kind: 'SEALS_CUT_OFF', rowId: null, sealId: '9', from: null, to: null, detail: 'seal 9 is missing' },
          ],
        },
      };
      await route.fulfill({ json: changed });
    });
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: T.notIntact })).toBeVisible();
    const findings = page.getByRole('table', { name: 'Findings' });
    await expect(findings.getByRole('row', { name: /Entry changed/ })).toContainText('#1');
    await expect(findings.getByRole('row', { name: /Newest seals cut off/ })).toContainText('seal 9 is missing');
    await bothSizes(page, 'changed');
    await page.unroute(url);
  });

  await test.step('a reviewer has no navigation item and is not authorized at the address', async () => {
    await signOut(page);
    await signIn(page, 'reviewer');
    await expect(page.getByRole('link', { name: 'Audit Trail', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Audit Integrity', exact: true })).toHaveCount(0);
    await page.goto('/app/audit-trail/integrity');
    await expect(page.getByText('You are not authorized to view this page')).toBeVisible();
    await bothSizes(page, 'refused');
  });
});
