/**
 * The sign-in's second step in the browser (issue 37): a person whose authenticator app is enrolled (through
 * the real factor store, sealed with the stack's SECOND_FACTOR_KEY) signs in with the password, is held at
 * '/second-step', is refused a wrong code with 000 §8's text, and goes on with a current code; the next time
 * with a recovery code. axe at desktop and phone sizes. The person is the journey's own.
 */
import { expect, type Page, test } from '@playwright/test';
import { ARGON2_DEFAULTS } from '@portal/directory';
import { MESSAGES } from '@portal/contract';
import { totpCode } from '../../api/src/auth/totp';
import { issueRecoveryCodes } from '../../api/src/auth/recovery-codes';
import { journeyEnv, journeyPrisma, makeJourneyUser, type JourneyUser } from '../support/journey-users';
import { clickAndExpectUrl, shot, signOut } from './support';
import { enrolConfirmed } from '../support/totp-codes';

/** A journey person with a confirmed authenticator app and recovery codes. */
async function personWithFactor(tag: string): Promise<{ me: JourneyUser; secret: string; recovery: string[] }> {
  const key = journeyEnv().SECOND_FACTOR_KEY!;
  const prisma = journeyPrisma();
  try {
    const me = await makeJourneyUser(prisma, tag, []);
    // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
    const enrolment = await enrolConfirmed(prisma, key, me, 'Phone');
    const recovery = await issueRecoveryCodes(prisma, me.id, ARGON2_DEFAULTS);
    return { me, secret: enrolment.secret, recovery };
  } finally {
    await prisma.$disconnect();
  }
}

async function passwordStep(page: Page, me: JourneyUser): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(me.username);
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Second Sign-In Step', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/second-step\?next=/);
}

test('a person with an authenticator app signs in with a code, and later with a recovery code', async ({ page }) => {
  const { me, secret, recovery } = await personWithFactor('twostep');

  await passwordStep(page, me);
  await shot(page, '90-second-step');
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText(MESSAGES.signIn.credentialsInvalid);
  await shot(page, '91-second-step-refused');
  await page.getByLabel('Authentication code').fill(await totpCode(secret));
  await clickAndExpectUrl(page, page.getByRole('button', { name: 'Verify' }), /\/app\/dashboard/);
  await signOut(page);

  await passwordStep(page, me);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recovery[0]!.toUpperCase());
  await clickAndExpectUrl(page, page.getByRole('button', { name: 'Verify' }), /\/app\/dashboard/);
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the second step is accessible, with the recovery code field too', async ({ page }) => {
    const { me } = await personWithFactor('twostepph');
    await passwordStep(page, me);
    await shot(page, '92-second-step-phone');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(page.getByLabel('Recovery code')).toBeFocused();
    await shot(page, '93-second-step-recovery-phone');
    await page.getByRole('button', { name: 'Cancel and sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign In', level: 1 })).toBeVisible();
  });
});
