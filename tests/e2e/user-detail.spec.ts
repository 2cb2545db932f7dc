/**
 * The user detail (000 §2 User detail, §4 User status / Saving / Unsaved changes / Country change, issue 11):
 * an administrator finds a user in the Users list and opens them, edits the Details tab (a new country clears
 * the state and loads its states), meets 'Unsaved Changes' on Back, saves ('User Details Updated', back to the
 * list after 750 ms), then deactivates the user through 'Change User Status' and activates them again.
 */
import { expect, test } from '@playwright/test';
import { pick, shot, signIn, signOut } from './support';

test('an administrator edits, saves and deactivates a user', async ({ page }) => {
  await signIn(page, 'admin');
  const jobTitle = `Coordinator ${Date.now().toString(36)}`;

  const open = async () => {
    await page.goto('/app/users?filter=expired%40portal.test');
    await expect(page.getByText('1 of 1 records shown')).toBeVisible();
    await page.getByRole('table').getByText('expired@portal.test').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Edit User Casey Lapsed' })).toBeVisible();
  };

  await test.step('the Account tab: fields with their limits, roles, status', async () => {
    await open();
    await expect(page.getByRole('tab', { name: 'Account', selected: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'First Name' })).toHaveValue('Casey');
    await expect(page.getByRole('textbox', { name: 'First Name' })).toHaveAttribute('maxlength', '45');
    await expect(page.getByRole('checkbox', { name: /Network User/ })).toBeChecked();
    await expect(page.getByTestId('user-status')).toHaveText('Active');
    await shot(page, '45-user-detail-account');
  });

  await test.step('Details: a new country clears the state and loads its states', async () => {
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page).toHaveURL(/tab=details/);
    await page.getByRole('textbox', { name: 'Job Title (optional)' }).fill(jobTitle);
    const country = page.getByRole('combobox', { name: 'Country (optional)' });
    const state = page.getByRole('combobox', { name: 'State (optional)' });
    await pick(page, country, 'Canada');
    await pick(page, state, 'Ontario');
    await pick(page, country, 'United States');
    await expect(state).toHaveValue('');
    await pick(page, state, 'Texas');
    await shot(page, '46-user-detail-details');
  });

  await test.step("Back with unsaved changes asks first; 'Go Back' stays", async () => {
    await page.getByRole('link', { name: /Back to Users/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved Changes' });
    await expect(dialog).toContainText('You have unsaved changes on this page');
    await dialog.getByRole('button', { name: 'Go Back' }).click();
    await expect(page.getByRole('textbox', { name: 'Job Title (optional)' })).toHaveValue(jobTitle);
  });

  await test.step('Save: the success alert, then back to the list', async () => {
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('User Details Updated')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/users\?/);
    await open();
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page.getByRole('textbox', { name: 'Job Title (optional)' })).toHaveValue(jobTitle);
  });

  await test.step("Save with nothing changed: 'There are no changes to submit.'", async () => {
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('There are no changes to submit.')).toBeVisible();
  });

  await test.step("a refused field: the server's 422 under the field", async () => {
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill('admin@portal.test');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Unable to update the specified user due to one or more errors.')).toBeVisible();
    await expect(page.getByText('Email is already in use')).toBeVisible();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('expired@portal.test');
  });

  await test.step("deactivate through 'Change User Status', then activate again", async () => {
    await page.getByRole('button', { name: 'Change to Inactive' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change User Status' });
    await expect(confirm).toBeVisible();
    await shot(page, '47-user-detail-change-status');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('user-status')).toHaveText('Inactive');
    await page.getByRole('button', { name: 'Change to Active' }).click();
    await page.getByRole('dialog', { name: 'Change User Status' }).getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('user-status')).toHaveText('Active');
  });

  await signOut(page);
});

test('the Access tab shows what the user holds as role blocks and where each came from (editing: access-review.spec.ts)', async ({
  page,
}) => {
  await signIn(page, 'admin');
  await page.goto('/app/users?filter=laostaff%40portal.test');
  await page.getByRole('table').getByText('laostaff@portal.test').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Edit User/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Access' }).click();
  const block = page.getByRole('group', { name: 'Role #1' });
  await expect(block.getByRole('combobox', { name: 'Study Role' })).toHaveValue('LAO Staff');
  await expect(page.getByRole('button', { name: 'Add new role' })).toBeVisible();
  // Why they hold it (issue 25): the record's History tells its grant (the seed's, written before any audit row).
  const history = page.getByRole('button', { name: 'History: LAO Staff' });
  await expect(history).toHaveAttribute('aria-expanded', 'false');
  await history.click();
  const events = page.getByRole('list', { name: 'History of the LAO Staff access' });
  await expect(events.getByRole('listitem').first()).toContainText(/Granted.*by seed/);
  // A chosen LAO's pill keeps its label on the lines the field gives it, not one character per line: its label
  // ('MA036 - Dana Harbor Cancer Institute LAO') fits the field's width on a line or two.
  const pill = block.locator('.mantine-Pill-root').first();
  await expect(pill).toContainText('Dana Harbor');
  const box = (await pill.boundingBox())!;
  expect(box.height, `the pill is ${Math.round(box.width)} × ${Math.round(box.height)} px`).toBeLessThan(60);
  await shot(page, '48-user-detail-access');
  await signOut(page);
});

test('read-only staff see View User without the buttons', async ({ page }) => {
  await signIn(page, 'readonly');
  await page.goto('/app/users?filter=expired%40portal.test');
  await page.getByRole('table').getByText('expired@portal.test').click();
  await expect(page.getByRole('heading', { level: 1, name: 'View User Casey Lapsed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change to Inactive' })).toHaveCount(0);
  await signOut(page);
});
