/**
 * The journey of issue 2: a requester files an access-change request, a reviewer moves it to In Progress
 * and approves it, the requester sees APPROVED in their Requests History, and ops find that very workflow by
 * its search attributes in the Temporal Web UI. Then own requests of every type (001 §2.5, issue 12): NEW
 * with the role-block rules and LAO-site-study filtering, CHANGE with the server's 'no changes', the
 * outstanding-request warning, and REMOVAL through 'Delete Access?'.
 */
import { expect, test } from '@playwright/test';
import { MESSAGES } from '@portal/contract';
import { journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { account, expectNoSidewaysScroll, linkFromMail, pick, shot, signIn, signInWith, signOut } from './support';

test('requester files, reviewer approves, requester sees APPROVED', async ({ page }) => {
  const comment = `Journey ${Date.now()}: please add me as data manager`;

  await test.step('the requester files a request for a new study role', async () => {
    await signIn(page, 'user');
    await shot(page, '01-requester-dashboard');
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Request New Access' }).click();
    await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
    await pick(page, page.getByRole('combobox', { name: 'Study Role' }), 'Data Manager');
    await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeDisabled();
    await page.getByLabel(/^Comments/).fill(comment);
    await shot(page, '02-request-form-filled');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page).toHaveURL(/tab=history/);
    const row = page.getByRole('row').filter({ hasText: comment });
    await expect(row).toContainText('Data Manager');
    await expect(row).toContainText('New');
    // At 1280 px the history fits: no sideways scrolling, the last column (Requester Comments) in view.
    await expectNoSidewaysScroll(page.getByRole('table', { name: 'Access requests' }));
    await expect(row.getByText(comment)).toBeInViewport();
    await shot(page, '03-requester-history-new');
    await signOut(page);
  });

  await test.step('the reviewer moves it to In Progress', async () => {
    await signIn(page, 'reviewer');
    await page.getByRole('link', { name: 'User Requests', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'User Requests', level: 1 })).toBeVisible();
    // The demo user's requests only: the other lane's journeys file requests (with longer names) meanwhile,
    // which would change the layout measured below (playwright.config.ts).
    await page.getByLabel('Filter user requests').fill('user@portal.test');
    await expect(page).toHaveURL(/filter=user%40portal\.test/);
    const row = page.getByRole('row').filter({ hasText: 'user@portal.test' }).first();
    await expect(row).toBeVisible();
    await expect(page.getByRole('table', { name: 'User requests' }).getByRole('row').nth(1)).toContainText(
      'user@portal.test',
    );
    // The status is the queue's second column, as a badge.
    await expect(row.getByRole('cell').nth(1)).toHaveText('New');
    await expectNoSidewaysScroll(page.getByRole('table', { name: 'User requests' }));
    await shot(page, '04-reviewer-queue');
    await row.click();
    await expect(page.getByText(comment)).toBeVisible();
    await pick(page, page.getByRole('combobox', { name: 'Request Status' }), 'In Progress');
    await page.getByLabel(/^External Ticket #/).fill('SR-2026-001');
    await shot(page, '05-review-in-progress');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('User Access Modification Request Updated').first()).toBeVisible();
    await expect(page).toHaveURL(/\/app\/user-requests$/);
  });

  await test.step('the reviewer applies the requested access and approves it, confirming the closure', async () => {
    const row = page.getByRole('row').filter({ hasText: 'user@portal.test' }).first();
    await expect(row).toContainText('In Progress');
    await row.click();
    await expect(page.getByText(comment)).toBeVisible();
    // Approval alone grants nothing (001 §2.8): the reviewer applies the request to the user's access.
    await page.getByRole('button', { name: 'Apply Above Changes' }).click();
    await pick(page, page.getByRole('combobox', { name: 'Request Status' }), 'Approved');
    await page.getByLabel(/^Reviewer Comments/).fill('Approved for the data management team.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await expect(confirm).toBeVisible();
    await shot(page, '06-review-confirm-closure');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/app\/user-requests$/);
    await signOut(page);
  });

  await test.step("the resolution mail's link survives sign-in and lands on the Requests History tab", async () => {
    const link = await linkFromMail('user@portal.test', 'was approved');
    await page.goto(link);
    await expect(page.getByTestId('sign-in-message')).toHaveText(MESSAGES.signIn.pleaseSignIn);
    await page.getByLabel('Username or Email Address').fill('user');
    await page.getByLabel('Password', { exact: true }).fill(account('user').password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/app\/profile\?tab=history$/);
    await expect(page.getByRole('tab', { name: 'Requests History' })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('the requester sees APPROVED and the new access', async () => {
    const row = page.getByRole('row').filter({ hasText: comment });
    await expect(row).toContainText('Approved');
    await expectNoSidewaysScroll(page.getByRole('table', { name: 'Access requests' }));
    await shot(page, '07-requester-history-approved');
    await page.goto('/app/profile?tab=access');
    await expect(page.getByRole('row').filter({ hasText: 'Data Manager' })).toBeVisible();
    await shot(page, '08-requester-access');
  });

  await test.step("ops find this request's workflow in the Temporal Web UI by its search attributes", async () => {
    const ui = process.env.TEMPORAL_UI_URL;
    expect(ui, 'the test stack runs its own Temporal dev server with the Web UI').toBeTruthy();
    const prisma = journeyPrisma();
    const { workflowId } = await prisma.accessModRequest
      .findFirstOrThrow({ where: { requesterComments: comment } })
      .finally(() => prisma.$disconnect());
    const query = encodeURIComponent(
      `WorkflowId="${workflowId}" AND RequestType="ACCESS_CHANGE" AND RequestStatus="APPROVED"`,
    );
    // Visibility is eventually consistent: reload until the request just approved shows up under the filter.
    await expect(async () => {
      await page.goto(`${ui}/namespaces/default/workflows?query=${query}`);
      await expect(page.getByText(workflowId, { exact: true }).first()).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await shot(page, '09-temporal-ui-filtered', { axe: false });
  });
});

test('a user files own NEW, CHANGE and REMOVAL requests with the role-block rules', async ({ page }) => {
  const prisma = journeyPrisma();
  // The held access follows the network's relations: an AO of one LAO and a study that AO runs.
  const relation = await prisma.siteRelation.findFirstOrThrow({
    where: { laoCode: 'MA036', NOT: { siteCode: 'MA036' } },
    orderBy: { id: 'asc' },
  });
  const me = await makeJourneyUser(prisma, 'ownreq', [
    { roleName: 'Clinical Research Associate', siteCodes: [relation.siteCode], studyNames: [relation.studyName] },
    { roleName: 'Research Pharmacist', siteCodes: [relation.siteCode] },
  ]);
  const laoStudies = await prisma.siteRelation.findMany({
    where: { laoCode: 'NY016', active: true },
    distinct: ['studyName'],
  });
  const [lao] = await prisma.site.findMany({ where: { laoCode: 'NY016' } });
  await prisma.$disconnect();
  const tag = me.username;

  await signInWith(page, me);

  const history = async (comment: string, type: string, role: string) => {
    await expect(page).toHaveURL(/tab=history/);
    const row = page.getByRole('row').filter({ hasText: comment });
    await expect(row).toContainText(type);
    await expect(row).toContainText(role);
  };
  const openHeld = async (roleName: string) => {
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: roleName, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Request Modified Access', level: 1 })).toBeVisible();
  };

  await test.step('NEW: the rules of the role block, LAO-site-study filtering, comments trimmed on blur', async () => {
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Request New Access' }).click();
    await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
    // Study roles already held are not offered.
    await page.getByRole('combobox', { name: 'Study Role' }).click();
    await expect(page.getByRole('option', { name: 'Clinical Research Associate' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await pick(page, page.getByRole('combobox', { name: 'Study Role' }), 'Site Investigator');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page.getByText(MESSAGES.access.atLeastOneSite).first()).toBeVisible();
    await expect(page.getByText(MESSAGES.access.atLeastOneStudy)).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeDisabled();
    await pick(page, page.getByRole('combobox', { name: /^LAOs/ }), `NY016 - ${lao!.siteName}`);
    // Sites to studies: only the studies the LAO's sites run are offered.
    await expect(page.getByText('Only the studies of the chosen AOs and LAOs')).toBeVisible();
    await page.getByRole('combobox', { name: /^Studies/ }).click();
    await expect(page.getByRole('option')).toHaveCount(laoStudies.length);
    await page.keyboard.press('Escape');
    await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
    const comments = page.getByLabel(/^Comments/);
    await comments.fill(`   NEW ${tag}   `);
    await comments.blur();
    await expect(comments).toHaveValue(`NEW ${tag}`);
    await shot(page, '40-own-new-request');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await history(`NEW ${tag}`, 'New Access', 'Site Investigator');
  });

  await test.step("CHANGE: nothing changed is the server's 'no changes', then a change is filed", async () => {
    await openHeld('Clinical Research Associate');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page.getByText(MESSAGES.access.noChanges)).toBeVisible();
    await shot(page, '41-own-change-no-changes');
    await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
    await page.getByLabel(/^Comments/).fill(`CHANGE ${tag}`);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await history(`CHANGE ${tag}`, 'Access Change', 'Clinical Research Associate');
  });

  await test.step('an outstanding request for the study role shows the warning and disables the form', async () => {
    await page.goto('/app/profile?tab=access');
    await expect(page.getByRole('row', { name: /Clinical Research Associate/ })).toContainText('Request outstanding');
    await openHeld('Clinical Research Associate');
    await expect(page.getByText(/An outstanding request already covers the study role/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit Request' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Remove Access' })).toBeDisabled();
    await shot(page, '42-own-change-outstanding');
  });

  await test.step("REMOVAL: 'Remove Access' asks 'Delete Access?' and files the removal", async () => {
    await openHeld('Research Pharmacist');
    await page.getByLabel(/^Comments/).fill(`REMOVAL ${tag}`);
    await page.getByRole('button', { name: 'Remove Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Access?' });
    await expect(dialog).toContainText('Are you sure you want to request removal of this access?');
    await shot(page, '43-own-removal-confirm');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await history(`REMOVAL ${tag}`, 'Access Removal', 'Research Pharmacist');
    await shot(page, '44-own-requests-history');
  });
});
