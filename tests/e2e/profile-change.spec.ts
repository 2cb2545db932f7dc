/**
 * Profile-change requests end to end (issue 11; 001 §2.10; 000 §2 Profile, §5 one outstanding request): a user
 * asks on the Profile's Account tab for a new last name (a 422 first), sees the outstanding-request banner and
 * the form locked; a reviewer finds the request in the User Requests queue, opens its review screen (and from
 * it the user detail, whose save is refused while the request is open), meets
 * 'Unsaved Changes' on leaving, approves it after 'Confirm Request Finalization/Closure' and returns to the
 * queue; the user then sees the new name applied, in the form and the header. Every screen is checked with axe.
 */
import { expect, test } from '@playwright/test';
import { PROFILE_CHANGE_MESSAGES, PROFILE_CHANGE_REVIEW_TITLE, USER_DETAIL_MESSAGES } from '@portal/contract';
import { shot, signIn, signOut } from './support';
import { makeChangingUser, requestLastName, signInAs } from './profile-change-support';

test('a user requests a name change, a reviewer approves it, the user sees it applied', async ({ page }) => {
  const user = await makeChangingUser('pc');
  const newLastName = `After${user.username.slice(-6)}`;
  let requestId = 0;

  await test.step('the user requests a new last name on the Account tab', async () => {
    await signInAs(page, user);
    await page.goto('/app/profile?tab=account');
    await expect(page.getByRole('heading', { name: 'Name and Email' })).toBeVisible();
    await expect(page.getByText(PROFILE_CHANGE_MESSAGES.requestHint)).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Last Name/ })).toHaveValue(user.lastName);
    await shot(page, 'profile-change-01-account');
    await page.getByRole('textbox', { name: /^First Name/ }).fill('');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page.getByText('First Name is required')).toBeVisible();
    await expect(page.getByText(PROFILE_CHANGE_MESSAGES.submitFailed)).toBeVisible();
    await shot(page, 'profile-change-02-errors');
    await page.getByRole('button', { name: 'Reset' }).click();
    requestId = await requestLastName(page, newLastName);
    await expect(page.getByText(PROFILE_CHANGE_MESSAGES.submitted)).toBeVisible();
    await expect(page.getByTestId('outstanding-request-banner')).toContainText(newLastName);
    await expect(page.getByRole('button', { name: 'Submit Request' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: /^Last Name/ })).toHaveValue(user.lastName);
    await expect(page.getByRole('textbox', { name: /^Last Name/ })).toHaveAttribute('readonly', '');
    await shot(page, 'profile-change-03-outstanding');
    await signOut(page);
  });

  await test.step('a reviewer finds it in the queue and approves it', async () => {
    await signIn(page, 'reviewer');
    await page.goto(`/app/user-requests?filter=${user.username}`);
    const row = page.getByRole('row').filter({ hasText: user.email });
    await expect(row).toContainText('Profile Change');
    await shot(page, 'profile-change-04-queue');
    await row.click();
    await expect(page).toHaveURL(new RegExp(`/app/user-requests/profile-change/${requestId}$`));
    await expect(page.getByRole('heading', { level: 1, name: PROFILE_CHANGE_REVIEW_TITLE })).toBeVisible();
    const changes = page.getByRole('table', { name: 'Requested changes' });
    await expect(changes.getByRole('row', { name: /Last Name/ })).toContainText(newLastName);
    await expect(changes.getByRole('row', { name: /Last Name/ })).toContainText(user.lastName);
    await expect(page.getByText('Submitted By')).toBeVisible();
    await expect(page.getByRole('link', { name: 'View/Edit User' })).toHaveAttribute(
      'href',
      new RegExp(`/app/users/${user.id}\\?returnPage=Profile-Change%20Request&returnUrl=`),
    );
    await shot(page, 'profile-change-05-review');

    // 'View/Edit User': while the request is open the user cannot be updated (000 §8); Back returns here.
    await page.getByRole('link', { name: 'View/Edit User' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Edit User/ })).toBeVisible();
    await page.getByRole('textbox', { name: /^First Name/ }).fill('Patricia');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(USER_DETAIL_MESSAGES.profileRequestOpen)).toBeVisible();
    await shot(page, 'profile-change-05b-user-blocked');
    await page.getByRole('link', { name: /Back to Profile-Change Request/ }).click();
    await page
      .getByRole('dialog', { name: 'Unsaved Changes' })
      .getByRole('button', { name: 'Abandon Changes' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/app/user-requests/profile-change/${requestId}$`));

    // Leaving with edits asks first (001 §2.10).
    await page.getByRole('textbox', { name: /^Reviewer Comments/ }).fill('Checked the marriage certificate.');
    await page.getByRole('link', { name: 'Back to User Requests Page' }).click();
    const unsaved = page.getByRole('dialog', { name: 'Unsaved Changes' });
    await expect(unsaved).toBeVisible();
    await unsaved.getByRole('button', { name: 'Go Back' }).click();
    await expect(unsaved).toHaveCount(0);

    await page.getByRole('combobox', { name: 'Request Status' }).click();
    await page.getByRole('option', { name: 'Approved', exact: true }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await expect(confirm).toContainText('applied');
    await shot(page, 'profile-change-06-confirm');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText(PROFILE_CHANGE_MESSAGES.reviewSaved)).toBeVisible();
    await expect(page).toHaveURL(/\/app\/user-requests$/);
    await page.goto(`/app/user-requests/profile-change/${requestId}`);
    await expect(page.getByTestId('request-status')).toHaveText('Approved');
    await expect(page.getByText(/This request is resolved \(Approved\)/)).toBeVisible();
    await shot(page, 'profile-change-07-approved');
    await signOut(page);
  });

  await test.step('the user sees the new name applied', async () => {
    await signInAs(page, user);
    await page.goto('/app/profile?tab=account');
    await expect(page.getByRole('textbox', { name: /^Last Name/ })).toHaveValue(newLastName);
    await expect(page.getByTestId('outstanding-request-banner')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Submit Request' })).toBeVisible();
    await expect(page.getByTestId('user-menu')).toContainText(newLastName);
    await shot(page, 'profile-change-08-applied');
  });
});
