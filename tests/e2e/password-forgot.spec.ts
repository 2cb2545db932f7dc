/**
 * Forgot Password end to end (000 §2 Forgot / Set Password screens, §5, §8): the reset mail is read from the
 * SMTP catcher, its link opens the Set Password form, the server's rules refuse a weak password, a good one
 * is set, the used link is refused, and the user signs in with the new password.
 */
import { expect, test } from '@playwright/test';
import { AUTH_MESSAGES } from '@portal/contract';
import { account, linkFromMail, shot, signOut, submitSignIn, watchCsp } from './support';

test('forgot password: mail, link, set a new password, sign in', async ({ page }) => {
  const csp = watchCsp(page);
  const { email } = account('forgetful');
  const newPassword = `Found-${Date.now()}-Again!`;

  await test.step('asks for a reset mail from the sign-in page', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot Password', level: 1 })).toBeVisible();
    await page.getByLabel('Email Address').fill('not-an-address');
    await page.getByRole('button', { name: 'Send Reset Email' }).click();
    await expect(page.getByText('Email Address is invalid')).toBeVisible();
    await page.getByLabel('Email Address').fill(email);
    await page.getByRole('button', { name: 'Send Reset Email' }).click();
    await expect(page.getByTestId('forgot-sent')).toHaveText(AUTH_MESSAGES.forgotSent(email));
    await expect(page.getByRole('link', { name: 'Remember your password? Sign In' })).toBeVisible();
    await shot(page, 'password-01-forgot-sent');
  });

  const link = await linkFromMail(email, 'reset your password');
  expect(link).toContain('/reset-password/');

  await test.step('follows the link and sets a password the server accepts', async () => {
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Set Password', level: 1 })).toBeVisible();
    await expect(page.getByTestId('password-rules')).toContainText('At least 12 characters long');
    await page.getByLabel('New Password', { exact: true }).fill('weakpassword1');
    await page.getByLabel('New Password Again').fill('weakpassword2');
    await expect(page.getByText(AUTH_MESSAGES.passwordsDoNotMatch)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Change Password' })).toBeDisabled();
    await page.getByLabel('New Password Again').fill('weakpassword1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    // Refused by the server's rules, shown under the field.
    await expect(page.getByText(AUTH_MESSAGES.resetFailed)).toBeVisible();
    await expect(page.getByText(/At least one uppercase letter/)).toHaveCount(2);
    await shot(page, 'password-02-set-password-refused');
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('New Password Again').fill(newPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText(AUTH_MESSAGES.changedStandalone)).toBeVisible();
    await shot(page, 'password-03-set-password-done');
  });

  await test.step('the used link is refused', async () => {
    await page.goto(link);
    await expect(page.getByTestId('invalid-hash')).toHaveText(AUTH_MESSAGES.invalidHash);
    await shot(page, 'password-04-used-link');
  });

  await test.step('signs in with the new password, not the old one', async () => {
    await submitSignIn(page, 'forgetful');
    await expect(page.getByText('The username and password provided do not match.')).toBeVisible();
    await submitSignIn(page, 'forgetful', newPassword);
    await expect(page).toHaveURL(/\/app\/dashboard/);
    await signOut(page);
  });
  expect(csp).toEqual([]);
});
