/**
 * Passkeys and security keys in the browser (docs/decisions.md "Passkeys"), with Chromium's virtual
 * authenticator (DevTools protocol WebAuthn domain: a CTAP2 platform authenticator with resident keys and user
 * verification) through the real routes, slapd and mail catcher:
 * - a person adds a passkey from Profile → Security (its name, the password again, the browser's prompt),
 *   follows the emailed link (a first factor), signs in with the password and the passkey as the second step,
 *   then with the passkey alone ('Sign in with a passkey'), and removes it after the password again;
 * - the demo study system's 'Sign in with a passkey' asks for the phishing-resistant level: a session opened
 *   with the password alone steps up with the passkey only, and the system sees the level;
 * axe (WCAG 2.2 AA) on each new screen at 1280 px and at phone size. The people are the journey's own.
 */
import { expect, type Page, test } from '@playwright/test';
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type JourneyUser, journeyEnv, journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { enrolConfirmed } from '../support/totp-codes';
import { addPasskey, confirmFromMail, virtualAuthenticator } from './passkey-support';
import { expectSignedIn, shot, signInWith, signOut } from './support';

let prisma: PrismaClient;

test.beforeAll(() => {
  prisma = journeyPrisma();
});
test.afterAll(async () => prisma.$disconnect());

/** Signs in with the username and password, to the second step. */
async function passwordStep(page: Page, me: JourneyUser): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(me.username);
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Second Sign-In Step', level: 1 })).toBeVisible();
}

test('a person adds a passkey, signs in with it as the second step and alone, and removes it', async ({ page }) => {
  const credentials = await virtualAuthenticator(page);
  const me = await makeJourneyUser(prisma, 'pkweb', []);
  await signInWith(page, me);
  await page.goto('/app/profile?tab=security');
  const section = page.getByRole('region', { name: 'Passkeys and Security Keys' });
  await expect(section.getByText('You have no passkey or security key yet.')).toBeVisible();
  await shot(page, '93-passkeys-empty');

  // A wrong password is refused before the browser is asked.
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Password', { exact: true }).fill('not-my-password');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText(T.passwordWrong)).toBeVisible();
  expect(await credentials()).toBe(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await addPasskey(page, me, 'Work laptop', '93-passkeys-add');
  expect(await credentials()).toBe(1);
  await expect(page.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible();
  await expect(section.getByText('Waiting for the emailed link')).toBeVisible();
  await shot(page, '93-passkeys-awaiting-email');

  // A first factor works once the emailed link confirms it.
  await confirmFromMail(page, me);

  // The password, then the passkey: offered first.
  await signOut(page);
  await shot(page, '93-passkeys-sign-in');
  await passwordStep(page, me);
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  await shot(page, '93-passkeys-second-step');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expectSignedIn(page);

  // The passkey alone: no username, no password, no second step.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectSignedIn(page);
  await page.goto('/app/profile?tab=security');
  const row = section.getByRole('row', { name: /Work laptop/ });
  await expect(row).toContainText('In use');
  // Last used: the sign-ins just made.
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^\d{2}\/\d{2}\/\d{4} /);
  // The only factor in use stays; with an app beside it, the passkey may go.
  await expect(section.getByRole('button', { name: 'Remove Work laptop' })).toHaveCount(0);
  await enrolConfirmed(prisma, journeyEnv().SECOND_FACTOR_KEY!, me, 'Phone');
  await page.reload();
  await section.getByRole('button', { name: 'Remove Work laptop' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Work laptop' });
  await remove.getByLabel('Password', { exact: true }).fill(me.password);
  await shot(page, '93-passkeys-remove');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByText('You have no passkey or security key yet.')).toBeVisible();
  expect(await prisma.secondFactor.count({ where: { portalUserId: me.id, kind: 'WEBAUTHN' } })).toBe(0);
});

/** A journey user holding 'Electronic Data Capture' through a Clinical Research Associate record. */
async function withEdc(prefix: string): Promise<JourneyUser> {
  const relation = await prisma.siteRelation.findFirstOrThrow({
    where: { laoCode: 'MA036', NOT: { siteCode: 'MA036' } },
    orderBy: { id: 'asc' },
  });
  return makeJourneyUser(prisma, prefix, [
    { roleName: 'Clinical Research Associate', siteCodes: [relation.siteCode], studyNames: [relation.studyName] },
  ]);
}

test('a study system asking for the phishing-resistant level gets a passkey step-up', async ({ page }) => {
  await virtualAuthenticator(page);
  const me = await withEdc('pkedc');
  await signInWith(page, me);
  // An app, then a passkey (in use at once: a further factor); the session still holds the password alone.
  await enrolConfirmed(prisma, journeyEnv().SECOND_FACTOR_KEY!, me, 'Phone');
  await addPasskey(page, me, 'Laptop');
  const client = await prisma.ssoClient.findUniqueOrThrow({ where: { clientId: 'edc-demo' } });
  const demo = new URL('/', client.initiateLoginUri!).href;

  await page.goto(demo);
  await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Second Sign-In Step', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/level=phr/);
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Use the authenticator app' })).toHaveCount(0);
  await shot(page, '93-passkeys-step-up');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByText(/^Signed in with a passkey or security key \(urn:portal:acr:phr; /)).toBeVisible();
  await shot(page, '93-passkeys-step-up-signed-in');
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the passkey screens', async ({ page }) => {
    await virtualAuthenticator(page);
    const me = await makeJourneyUser(prisma, 'pkphone', []);
    await signInWith(page, me);
    await enrolConfirmed(prisma, journeyEnv().SECOND_FACTOR_KEY!, me, 'Phone');
    await addPasskey(page, me, 'Phone passkey', 'phone-93-passkeys-add');
    await shot(page, 'phone-93-passkeys-security');
    await signOut(page);
    await shot(page, 'phone-93-passkeys-sign-in');
    await passwordStep(page, me);
    await shot(page, 'phone-93-passkeys-second-step');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectSignedIn(page);
  });
});
