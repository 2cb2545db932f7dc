/**
 * The Users list (000 §2 Users list, issue 11): an administrator opens Users from the Administration
 * navigation, filters (the filter lands in the URL after the debounce), sorts, switches to the Inactive tab
 * ('No records found'), comes back and opens the user from the row.
 */
import { expect, test } from '@playwright/test';
import { makeJourneyUser, journeyPrisma } from '../support/journey-users';
import { expectNoSidewaysScroll, shot, signIn, signOut } from './support';

test('an administrator filters the Users list and opens a user', async ({ page }) => {
  // A long address on the first page (last names sort 'Aa…' first): the table wraps it and stays as wide as
  // the page at 1280 px whatever the data (other journeys' users land on this page too).
  const prisma = journeyPrisma();
  try {
    await makeJourneyUser(prisma, 'aaverylongaddressforthewidthofthetable');
  } finally {
    await prisma.$disconnect();
  }
  await signIn(page, 'admin');
  const table = page.getByRole('table');

  await test.step('Users under Administration: Active tab sorted by last name, with the counter', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).click();
    await expect(page).toHaveURL(/\/app\/users$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Active', exact: true, selected: true })).toBeVisible();
    await expect(page.getByText(/^\d+ of \d+ records shown$/)).toBeVisible();
    // Sortable headers are buttons inside the header cells, so the header row is read as text.
    for (const title of [
      'First Name',
      'Last Name',
      'Email',
      'Organization',
      'AO Member ID(s)',
      'LAO Affiliation(s)',
      'Phone',
    ]) {
      await expect(table.locator('thead')).toContainText(title);
    }
    await expect(table.getByRole('row').nth(1)).toContainText('aaverylongaddressforthewidthofthetable');
    await expectNoSidewaysScroll(table);
    await shot(page, '43-users-list');
  });

  await test.step('the filter matches the LAO code and the last name, and is kept in the URL', async () => {
    await page.getByRole('textbox', { name: 'Filter users' }).fill('Liaison');
    await expect(page).toHaveURL(/filter=Liaison/);
    await expect(page.getByText('1 of 1 records shown')).toBeVisible();
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText('Morgan');
    await expect(row).toContainText('laostaff@portal.test');
    await expect(row).toContainText('MA036');
    await shot(page, '44-users-list-filtered');
  });

  await test.step('sorting by first name goes to the server and into the URL', async () => {
    await table.locator('thead').getByText('First Name', { exact: true }).click();
    await expect(page).toHaveURL(/sort=person\.firstName%2Casc|sort=person\.firstName,asc/);
    await expect(table.getByRole('row').nth(1)).toContainText('Morgan');
  });

  await test.step('the Inactive tab has no such user', async () => {
    await page.getByRole('tab', { name: 'Inactive' }).click();
    await expect(page).toHaveURL(/tab=inactive/);
    await expect(page.getByText('No records found')).toBeVisible();
    await page.getByRole('tab', { name: 'Active', exact: true }).click();
    await expect(page.getByText('1 of 1 records shown')).toBeVisible();
  });

  await test.step('the row opens the user detail, returning to this view', async () => {
    await table.getByRole('row').nth(1).getByRole('cell').nth(1).click();
    await expect(page).toHaveURL(/\/app\/users\/\d+\?returnUrl=%2Fapp%2Fusers%3F.*filter%3DLiaison/);
  });

  await signOut(page);
});
