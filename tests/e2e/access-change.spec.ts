/**
 * The journey of issue 2: a requester files an access-change request, a reviewer moves it to In Progress
 * and approves it, the requester sees APPROVED in their Requests History, and the workflow can be found
 * by its search attributes in the Temporal Web UI.
 */
import { expect, test } from '@playwright/test';
import { MESSAGES } from '@portal/contract';
import { account, expectNoSidewaysScroll, linkFromMail, pick, shot, signIn, signOut } from './support';

test('requester files, reviewer approves, requester sees APPROVED', async ({ page }) => {
  const comment = `Journey ${Date.now()}: please add me as data manager`;

  await test.step('the requester files a request for a new study role', async () => {
    await signIn(page, 'user');
    await shot(page, '01-requester-dashboard');
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Request New Access' }).click();
    await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
    await pick(page, page.getByRole('textbox', { name: 'Study Role' }), 'Data Manager');
    await pick(page, page.getByRole('textbox', { name: /^Studies/ }));
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
    const row = page.getByRole('row').filter({ hasText: 'user@portal.test' }).first();
    await expect(row).toBeVisible();
    // The status is the queue's second column, as a badge.
    await expect(row.getByRole('cell').nth(1)).toHaveText('New');
    await expectNoSidewaysScroll(page.getByRole('table', { name: 'User requests' }));
    await shot(page, '04-reviewer-queue');
    await row.click();
    await expect(page.getByText(comment)).toBeVisible();
    await pick(page, page.getByRole('textbox', { name: 'Request Status' }), 'In Progress');
    await page.getByLabel(/^External Ticket #/).fill('SR-2026-001');
    await shot(page, '05-review-in-progress');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('User Access Modification Request Updated').first()).toBeVisible();
    await expect(page).toHaveURL(/\/app\/user-requests$/);
  });

  await test.step('the reviewer approves it, confirming the closure', async () => {
    const row = page.getByRole('row').filter({ hasText: 'user@portal.test' }).first();
    await expect(row).toContainText('In Progress');
    await row.click();
    await expect(page.getByText(comment)).toBeVisible();
    await pick(page, page.getByRole('textbox', { name: 'Request Status' }), 'Approved');
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
    await page.getByLabel('Password').fill(account('user').password);
    await page.getByRole('button', { name: 'Sign In' }).click();
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
});

test('ops find the request workflows in the Temporal Web UI by search attribute', async ({ page }) => {
  const ui = process.env.TEMPORAL_UI_URL;
  expect(ui, 'the test stack runs its own Temporal dev server with the Web UI').toBeTruthy();
  const query = encodeURIComponent('RequestType="ACCESS_CHANGE" AND RequestStatus="APPROVED"');
  // Visibility is eventually consistent: reload until the approved request shows up.
  await expect(async () => {
    await page.goto(`${ui}/namespaces/default/workflows?query=${query}`);
    await expect(page.getByText(/access-change-\d+/).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await shot(page, '09-temporal-ui-filtered', { axe: false });
});
