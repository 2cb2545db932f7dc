/**
 * Approval policies, end to end: an admin gives a study role a one-stage policy (LAO staff) through Configure
 * → Approval policies; a user files a NEW request for the role at MA036; the LAO staff persona of MA036
 * ('laostaff', who holds no reviewer permission) finds it under 'Awaiting my approval' and approves stage one;
 * the reviewer then saves it Approved (no override: no stage is open); the requester's Requests History shows
 * 'Pending Review' with the open stage under it while the stage waits, and 'Approved' at the end. The new
 * screens are checked with axe (and the checks beyond it) at desktop and phone sizes. The role is the
 * journey's own (a policy on a seeded role would add a stage to the other journeys' requests); the admin
 * deletes the policy through its editor at the end.
 */
import { expect, test, type Page } from '@playwright/test';
import { APPROVAL_TEXTS } from '@portal/contract';
import { journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { pick, shot, signIn, signInWith, signOut } from './support';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The screen checked and saved at desktop size, then at phone size, then back at desktop size. */
async function shotBoth(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await page.setViewportSize(PHONE);
  await shot(page, `phone-${name}`);
  await page.setViewportSize(DESKTOP);
}

test('an LAO staff stage: policy, filing, stage approval, review, history', async ({ page }) => {
  const prisma = journeyPrisma();
  const gateway = await prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } });
  const tag = Date.now().toString(36);
  const roleName = `Approval Journey ${tag}`;
  const role = await prisma.studyRole.create({
    data: {
      roleName,
      description: 'A study role of the approval-policy journey',
      siteRequired: true,
      allowAOs: false,
      allowLAOs: true,
      systems: { create: [{ systemId: gateway.id }] },
    },
  });
  const [lao] = await prisma.site.findMany({ where: { laoCode: 'MA036' } });
  const me = await makeJourneyUser(prisma, 'staged');
  await prisma.$disconnect();
  const comment = `Approval journey ${tag}`;

  await test.step('the admin adds a one-stage LAO staff policy for the role', async () => {
    await signIn(page, 'admin');
    await page.goto('/app/configure/?tab=approvalPolicies');
    await expect(page.getByRole('tab', { name: 'Approval policies' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Study approvers', level: 2 })).toBeVisible();
    await shotBoth(page, 'approval-01-policies-tab');
    await page.getByRole('link', { name: 'Add policy' }).click();
    await expect(page.getByRole('heading', { name: 'Add Approval Policy', level: 1 })).toBeVisible();
    await pick(page, page.getByRole('combobox', { name: /^Study Role/ }), roleName);
    await expect(page.getByRole('combobox', { name: /^System/ })).toHaveValue('Any system');
    // One stage by default: LAO staff, 5 working days, a reminder one working day before, then User Support.
    await expect(page.getByRole('group', { name: APPROVAL_TEXTS.stageOf(1, 1) })).toBeVisible();
    await expect(page.getByRole('combobox', { name: /^Approvers/ })).toHaveValue('LAO staff');
    await page.getByRole('textbox', { name: /^Deadline/ }).fill('5');
    await page.getByRole('textbox', { name: /^Reminder/ }).fill('1');
    await expect(page.getByRole('button', { name: 'Add stage 2 (Study approvers)' })).toBeVisible();
    await shotBoth(page, 'approval-02-policy-editor');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expect(page).toHaveURL(/tab=approvalPolicies$/);
    const row = page.getByRole('row').filter({ hasText: roleName });
    await expect(row).toContainText('Any system');
    await expect(row).toContainText('LAO staff (5 working days)');
    await expect(row).toContainText('Active');
    await signOut(page);
  });

  await test.step('a user files a NEW request for the role at MA036', async () => {
    await signInWith(page, me);
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Request New Access' }).click();
    await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
    await pick(page, page.getByRole('combobox', { name: 'Study Role' }), roleName);
    await pick(page, page.getByRole('combobox', { name: /^LAOs/ }), `MA036 - ${lao!.siteName}`);
    await page.getByLabel(/^Comments/).fill(comment);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page).toHaveURL(/tab=history/);
    // The spec's status stays; the open stage is a line under it (the plan's stage opens with the workflow).
    await expect(async () => {
      await page.reload();
      const row = page.getByRole('row').filter({ hasText: comment });
      await expect(row).toContainText(/New|Pending Review/, { timeout: 3_000 });
      await expect(row).toContainText(`${APPROVAL_TEXTS.stageOf(1, 1)}: LAO staff`, { timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await shot(page, 'approval-03-requester-history-stage');
    // The dashboard's 'My requests' shows the same line under the status.
    await page.goto('/app/dashboard');
    const mine = page
      .getByRole('table', { name: 'My open requests' })
      .getByRole('row')
      .filter({ hasText: 'New Access' });
    await expect(mine).toContainText(`${APPROVAL_TEXTS.stageOf(1, 1)}: LAO staff`);
    await shotBoth(page, 'approval-03b-requester-dashboard-stage');
    await signOut(page);
  });

  await test.step("the LAO staff persona approves stage one from 'Awaiting my approval'", async () => {
    await signIn(page, 'laostaff');
    await page.getByRole('navigation').getByRole('link', { name: APPROVAL_TEXTS.awaitingTitle }).click();
    await expect(page.getByRole('heading', { name: APPROVAL_TEXTS.awaitingTitle, level: 1 })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: me.email });
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expect(row).toContainText(APPROVAL_TEXTS.stageOf(1, 1));
    await expect(row).toContainText('LAO staff');
    await expect(row).toContainText(roleName);
    await expect(row).toContainText('New Access');
    await shotBoth(page, 'approval-04-awaiting');
    await row.getByRole('link', { name: `${me.firstName} ${me.lastName}` }).click();
    await expect(page.getByRole('heading', { name: 'Decide Approval Stage', level: 1 })).toBeVisible();
    const stages = page.getByRole('region', { name: 'Approval stages' });
    await expect(stages).toContainText(`${APPROVAL_TEXTS.stageOf(1, 1)}: LAO staff`);
    await expect(stages).toContainText('Open');
    await expect(page.getByRole('textbox', { name: 'Requester Comments' })).toHaveValue(comment);
    await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('MA036 knows this person.');
    // The full-page picture from the top (filling the comment scrolled it; the fixed header would sit mid-page).
    await page.evaluate(() => window.scrollTo(0, 0));
    await shotBoth(page, 'approval-05-stage-decision');
    await page.getByRole('button', { name: APPROVAL_TEXTS.approveStage }).click();
    await expect(page.getByText(APPROVAL_TEXTS.signatureMeaning('APPROVED', 1))).toBeVisible();
    await expect(stages).toContainText('Approved');
    await expect(stages).toContainText('Comment: MA036 knows this person.');
    await expect(page.getByRole('button', { name: APPROVAL_TEXTS.approveStage })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'approval-06-stage-decided');
    await signOut(page);
  });

  await test.step('the reviewer saves it Approved: no stage is open, so no override is asked', async () => {
    await signIn(page, 'reviewer');
    await page.goto(`/app/user-requests?status=all&filter=${encodeURIComponent(me.email)}`);
    const row = page.getByRole('row').filter({ hasText: me.email }).first();
    await expect(row).toBeVisible();
    await row.click();
    await expect(page.getByRole('heading', { name: 'Review Access Change Request', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Approval stages' })).toContainText('Approved');
    await page.getByRole('button', { name: 'Apply Above Changes' }).click();
    await pick(page, page.getByRole('combobox', { name: 'Request Status' }), 'Approved');
    await expect(page.getByRole('textbox', { name: new RegExp(APPROVAL_TEXTS.overrideLabel) })).toHaveCount(0);
    await shot(page, 'approval-07-review-with-stages');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/app\/user-requests$/);
    await signOut(page);
  });

  await test.step("the requester's history shows it Approved, no stage line left", async () => {
    await signInWith(page, me);
    await page.goto('/app/profile?tab=history');
    const row = page.getByRole('row').filter({ hasText: comment });
    await expect(row).toContainText('Approved');
    await expect(row).not.toContainText(APPROVAL_TEXTS.stageOf(1, 1));
    await shot(page, 'approval-08-requester-history-approved');
    await signOut(page);
  });

  await test.step('the admin deletes the policy, after the confirmation', async () => {
    await signIn(page, 'admin');
    await page.goto('/app/configure/?tab=approvalPolicies');
    await page.getByRole('row').filter({ hasText: roleName }).getByRole('link', { name: roleName }).click();
    await expect(page.getByRole('heading', { name: 'Edit Approval Policy', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Delete policy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete approval policy?' });
    await expect(dialog).toBeVisible();
    await shot(page, 'approval-09-delete-confirmation');
    await dialog.getByRole('button', { name: 'Delete policy' }).click();
    await expect(page).toHaveURL(/tab=approvalPolicies$/);
    await expect(page.getByRole('row').filter({ hasText: roleName })).toHaveCount(0);
  });

  // The journey's role stays out of the other journeys' way: inactive once done.
  const cleanup = journeyPrisma();
  await cleanup.studyRole.update({ where: { id: role.id }, data: { inactive: true } });
  await cleanup.$disconnect();
});
