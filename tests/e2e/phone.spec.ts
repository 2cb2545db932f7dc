/**
 * Every screen at phone size (390 x 844) with axe (WCAG 2.0/2.1/2.2 A and AA, issue 9): the public pages, the
 * network user's, the reviewer's and the administrator's, each checked and photographed as `phone-*`. The
 * desktop journeys check the same screens at 1280 px through `shot`. A new screen gets a line here.
 */
import { expect, type Page, test } from '@playwright/test';
import { pick, shot, signIn, signOut } from './support';
import { makeChangingUser, requestLastName, signInAs } from './profile-change-support';

test.use({ viewport: { width: 390, height: 844 } });

/** Opens `url`, waits for its h1 and checks the screen. */
async function visit(page: Page, url: string, heading: string | RegExp, name: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText('Searching')).toHaveCount(0);
  await shot(page, `phone-${name}`);
}

test('public screens at phone size', async ({ page }) => {
  await visit(page, '/', 'Sign In', '01-sign-in');
  await visit(page, '/?message=Please%20sign%20in', 'Sign In', '02-sign-in-message');
  await visit(page, '/forgot-password', 'Forgot Password', '03-forgot-password');
  await visit(page, '/no-such-page', 'Page Not Found', '04-public-not-found');
});

test("a network user's screens at phone size", async ({ page }) => {
  await signIn(page, 'user');
  await visit(page, '/app/dashboard', /./, '10-dashboard');
  // The name in the header is whole or shortened on purpose, never cut mid-letter by the bar.
  const menu = page.getByTestId('user-menu');
  await expect(menu).toBeVisible();
  expect((await menu.boundingBox())!.x + (await menu.boundingBox())!.width).toBeLessThanOrEqual(390);
  await page.getByRole('button', { name: 'Show Sidebar' }).click();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Profile' })).toBeVisible();
  await shot(page, 'phone-11-navigation-open');
  await page.getByRole('button', { name: 'Hide Sidebar' }).click();
  for (const [tab, label] of [
    ['account', 'account'],
    ['details', 'details'],
    ['access', 'access'],
    ['history', 'history'],
  ] as const) {
    await visit(page, `/app/profile?tab=${tab}`, 'Profile', `12-profile-${label}`);
  }
  await page.goto('/app/profile?tab=access');
  await page.getByRole('link', { name: 'Request New Access' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Request New Access' })).toBeVisible();
  await shot(page, 'phone-13-request-new-access');
  await visit(page, '/app/change-password', 'Change Password', '14-change-password');
  await visit(page, '/app/no-such-page', 'Page Not Found', '15-not-found');
  await visit(page, '/app/user-requests', 'Not Authorized', '16-not-authorized');
  await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toBeVisible();
  await signOut(page);
});

test("a reviewer's screens at phone size", async ({ page }) => {
  await signIn(page, 'reviewer');
  // The reviewer's dashboard: the open queues' chart (when anything waits) and table at phone width.
  await page.goto('/app/dashboard');
  const queues = page.getByRole('region', { name: 'Open user requests' });
  await expect(queues.getByTestId('open-queue-total')).toBeVisible();
  if ((await queues.getByTestId('open-queue-total').textContent()) !== '0') {
    await expect(queues.getByTestId('queue-chart')).toBeVisible();
  }
  await visit(page, '/app/dashboard', /./, '19-dashboard-reviewer');
  await visit(page, '/app/user-requests', 'User Requests', '20-user-requests');
  const first = page.getByRole('table').getByRole('row').nth(1);
  if (await first.getByRole('link').count()) {
    await first.getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 2, name: 'Review' })).toBeVisible();
    await shot(page, 'phone-21-review');
  }
  // Reports (001 §2.11): the download form and the requests by status.
  await page.goto('/app/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Requests by Status' }).getByText('…')).toHaveCount(0);
  await shot(page, 'phone-23-reports');
  await page.goto('/app/user-requests/access-change/999999999');
  await expect(page.getByRole('heading', { level: 2, name: 'Request Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the User Requests queue' })).toBeVisible();
  await shot(page, 'phone-22-review-not-found');
  // Review Access Change Request (001 §2.8): the request, the user's access as role blocks, the portal roles.
  await page.goto('/app/user-requests?status=all&filter=Access%20Change');
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Access Change Request' })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Current Access of/ })).toBeVisible();
  await shot(page, 'phone-24-review-access-change');
  await signOut(page);
});

test("an administrator's screens at phone size", async ({ page }) => {
  await signIn(page, 'admin');
  for (const [tab, name] of [
    ['portalRoles', '30-configure-portal-roles'],
    ['studyRoles', '31-configure-study-roles'],
    ['systems', '32-configure-systems'],
  ] as const) {
    await visit(page, `/app/configure/?tab=${tab}`, 'Configure', name);
  }
  await visit(page, '/app/configure/roles/new', 'Add Portal Role', '33-add-portal-role');
  await visit(page, '/app/configure/study-roles/new', /Study Role/, '34-add-study-role');
  await visit(page, '/app/configure/systems/new', 'Add System', '35-add-system');
  await visit(page, '/app/configure/?tab=systems', 'Configure', '32-configure-systems');
  await page.getByRole('table').getByRole('row').nth(1).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit System' })).toBeVisible();
  await shot(page, 'phone-36-edit-system');
  await visit(page, '/app/audit-trail', 'Audit Trail', '37-audit-trail');
  // Issue 25: the access review campaigns (their own journey shows a campaign page and a reviewer's items).
  await visit(page, '/app/access-review-campaigns', 'Access Review Campaigns', '45-access-review-campaigns');
  await visit(page, '/app/access-review-campaigns?tab=recurring', 'Access Review Campaigns', '46-recurring-reviews');
  await visit(page, '/app/access-review-campaigns/new', 'New Access Review Campaign', '47-new-campaign');
  const details = page.getByRole('button', { name: /^Before \/ after:/ });
  if (await details.count()) {
    await details.first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await shot(page, 'phone-38-audit-before-after');
    await page.keyboard.press('Escape');
  }
  await visit(page, '/app/users', 'Users', '39-users-list');
  await page.goto('/app/users?filter=expired%40portal.test');
  await page.getByRole('table').getByText('expired@portal.test').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Edit User/ })).toBeVisible();
  await shot(page, 'phone-40-user-detail');
  await page.getByRole('tab', { name: 'Requests History' }).click();
  await expect(page.getByRole('table', { name: 'Access requests' })).toBeVisible();
  await expect(page.getByText('Searching')).toHaveCount(0);
  await shot(page, 'phone-41-user-detail-history');
  // The Access tab (000 §2): the user's access as editable role blocks.
  await page.getByRole('tab', { name: 'Access' }).click();
  await expect(page.getByRole('button', { name: 'Add new role' })).toBeVisible();
  await shot(page, 'phone-42-user-detail-access');
  await signOut(page);
});

test('a profile-change request at phone size: the Account tab with its banner, the review screen', async ({ page }) => {
  const user = await makeChangingUser('pcphone');
  await signInAs(page, user);
  await visit(page, '/app/profile?tab=account', 'Profile', '50-profile-account-request');
  const id = await requestLastName(page, 'Phoned');
  await expect(page.getByTestId('outstanding-request-banner')).toBeVisible();
  await shot(page, 'phone-51-profile-outstanding');
  await signOut(page);
  await signIn(page, 'reviewer');
  await visit(
    page,
    `/app/user-requests/profile-change/${id}`,
    'Review Profile-Change Request',
    '52-profile-change-review',
  );
  await signOut(page);
});

test('proxy access-change requests at phone size: the picker with its table, a batch summary', async ({ page }) => {
  await signIn(page, 'laostaff');
  // Issue 25: LAO staff review their LAO's access (items when a campaign is open, otherwise what waits).
  await visit(page, '/app/access-reviews', 'Access Reviews', '59-access-reviews');
  await visit(page, '/app/proxy-access-change-request', 'Request Access-Change for Other Users', '60-proxy-empty');
  await page.getByRole('combobox', { name: 'AO / LAO' }).click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /^Select all \d+ users$/ })).toBeVisible({ timeout: 20_000 });
  await shot(page, 'phone-61-proxy-users');
  // One user, not all: proxy-batch.spec.ts files for this AO / LAO's users, and a user with an open request is
  // skipped (601), so this journey leaves the others without one.
  await page
    .getByRole('checkbox', { name: /^Select (?!all rows)/ })
    .first()
    .check();
  await pick(page, page.getByRole('combobox', { name: 'Study Role' }), 'Data Manager');
  await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('button', { name: 'Submit Another Request' })).toBeVisible({ timeout: 60_000 });
  await shot(page, 'phone-62-proxy-summary');
  await signOut(page);
});
