/**
 * Read-only staff (READ_USERS) see the configuration without the means to change it, and the audit trail
 * with its filters, including a request transition linked to its workflow in the Temporal Web UI; a network
 * user sees neither.
 */
import { expect, test } from '@playwright/test';
import type { Profile, StudyRole } from '@portal/contract';
import { pick, shot, signIn, signOut } from './support';

test('read-only staff view the configuration and the audit trail; a network user is refused', async ({ page }) => {
  await signIn(page, 'readonly');

  await test.step('the configuration is shown read-only', async () => {
    await page.getByRole('link', { name: 'Configure', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Portal roles' })).toContainText('Administrator');
    await expect(page.getByRole('link', { name: 'Create Portal Role' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Administrator', exact: true }).click();
    await expect(
      page.getByText('You can view the configuration; changing it needs the ADMIN permission.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Portal Role' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete Portal Role' })).toHaveCount(0);
    await shot(page, '40-readonly-portal-role');
    await page.goto('/app/configure/systems/new');
    await expect(page.getByText('You are not authorized to view this page')).toBeVisible();
  });

  let requestId = 0;
  await test.step('a request filed through the API is audited with its workflow link', async () => {
    await page.goto('/app/dashboard');
    const xsrf = await page.evaluate(() => localStorage.getItem('xsrfToken'));
    const headers = { 'x-xsrf-token': xsrf ?? '' };
    const profile = (await (await page.request.get('/rest/secure/user_profile', { headers })).json()) as Profile;
    const roles = (await (await page.request.get('/rest/public/user_registration/study_roles/')).json()) as StudyRole[];
    const held = new Set(profile.userAccesses.map((a) => a.roleName));
    const role = roles.find((r) => !r.siteRequired && !r.studyRequired && !held.has(r.roleName))!;
    expect(role, 'a study role without site or study requirements').toBeTruthy();
    const filed = await page.request.post('/rest/secure/user_access_mod_request', {
      headers,
      data: {
        portalUserId: profile.portalUserId,
        requestType: 'NEW',
        accessControls: [{ roleName: role.roleName, systemAccessIds: role.systemAccessIds }],
        requesterComments: 'Audit trail journey',
      },
    });
    expect(filed.status()).toBe(200);
    requestId = (await filed.json()).id;
  });

  await test.step('the audit trail filters by entity, record, actor and date', async () => {
    await page.getByRole('link', { name: 'Audit Trail', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Audit Trail', level: 1 })).toBeVisible();
    await shot(page, '41-audit-trail');
    // Each filter lands in the address before the next one is set: a filter typed while the previous one's
    // navigation is still applying could otherwise be overwritten by it.
    await pick(page, page.getByRole('combobox', { name: 'Entity (optional)' }), 'Access-change request');
    await expect(page).toHaveURL(/entityType=AccessModRequest/);
    await page.getByRole('textbox', { name: 'Record id (optional)' }).fill(String(requestId));
    await expect(page).toHaveURL(new RegExp(`entityId=${requestId}`));
    await page.getByRole('textbox', { name: 'Changed by (optional)' }).fill('readonly');
    await expect(page).toHaveURL(/actor=readonly/);
    const today = new Date();
    const label = `${today.getDate()} ${today.toLocaleString('en-US', { month: 'long' })} ${today.getFullYear()}`;
    await page.getByRole('button', { name: 'Date range (optional)' }).click();
    // Exact: on the 1st to the 3rd of a month '1 December 2026' would also name the 11th, 21st and 31st.
    await page.getByRole('button', { name: label, exact: true }).click();
    await page.getByRole('button', { name: label, exact: true }).click();
    await page.keyboard.press('Escape');
    const table = page.getByRole('table', { name: 'Audit trail' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText(`Request #${requestId}`);
    await expect(row).toContainText('Created');
    // One compact link per row, named in full for screen readers.
    const link = row.getByRole('link', { name: /^Workflow of .* in the Temporal Web UI/ });
    await expect(link).toHaveText('Workflow ↗');
    await expect(link).toHaveAttribute('href', new RegExp(`/workflows/access-change-${requestId}$`));
    await expect(page).toHaveURL(/entityType=AccessModRequest/);
    await shot(page, '42-audit-trail-filtered');
    await signOut(page);
  });

  await test.step('a network user has no Administration menu and is refused', async () => {
    await signIn(page, 'user');
    await expect(page.getByRole('link', { name: 'Audit Trail' })).toHaveCount(0);
    await page.goto('/app/audit-trail');
    await expect(page.getByText('You are not authorized to view this page')).toBeVisible();
    await page.goto('/app/configure/?tab=systems');
    await expect(page.getByText('You are not authorized to view this page')).toBeVisible();
  });
});
