/**
 * Enrolling a second sign-in step in the browser (issue 37; docs/decisions.md "Second factors"), through the
 * real routes, slapd and mail catcher:
 * - a person adds an authenticator app from Profile → Security (password again, QR code and key, a code from
 *   the app), follows the emailed link, saves the recovery codes, gets new ones, and signs in with a code;
 * - a person whose portal role requires a second step (an API of the journey's own naming READ_USERS) signs
 *   in to the set-up page only, and reaches the portal through the emailed link;
 * axe at desktop and phone sizes on each new screen. The people are the journey's own.
 */
import { expect, type Page, test } from '@playwright/test';
import { ARGON2_DEFAULTS } from '@portal/directory';
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { readMail } from '@portal/scripts';
import { issueRecoveryCodes } from '../../api/src/auth/recovery-codes';
import { journeyEnv, journeyPrisma, makeJourneyUser, type JourneyUser } from '../support/journey-users';
import { type ExtraApi, linkFromMail, shot, signIn, signInWith, signOut, startExtraApi } from './support';
import { currentCode, enrolConfirmed, nextStepCode } from '../support/totp-codes';

/** A person of the journey's own, holding `portalRole` beside Network User when given. */
async function person(tag: string, portalRole?: string): Promise<JourneyUser> {
  const prisma = journeyPrisma();
  try {
    const me = await makeJourneyUser(prisma, tag, []);
    if (portalRole) {
      const role = await prisma.portalRole.findFirstOrThrow({ where: { description: portalRole } });
      await prisma.portalUserRole.create({ data: { portalUserId: me.id, portalRoleId: role.id } });
    }
    return me;
  } finally {
    await prisma.$disconnect();
  }
}

/**
 * Adds an authenticator app on the form shown (password, then the key and the app's current code; a later
 * sign-in takes the next step's, support/totp-codes.ts). @returns the key.
 */
async function addApp(page: Page, me: JourneyUser, screen: string): Promise<string> {
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the key for your authenticator app' })).toBeVisible();
  const secret = (await page.getByLabel('Key (shown only now)').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await expect(page.getByLabel('Code from the app')).toBeFocused();
  await shot(page, `${screen}-key`);
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(T.codeWrong)).toBeVisible();
  await page.getByLabel('Code from the app').fill(await currentCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible();
  return secret;
}

/** Opens the emailed confirmation link, confirms, and checks the ten recovery codes shown once. */
async function confirmFromMail(page: Page, me: JourneyUser, screen: string): Promise<void> {
  const link = await linkFromMail(me.email, T.mailSubjectConfirm);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirm Your Sign-In Method', level: 1 })).toBeVisible();
  await shot(page, `${screen}-confirm`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await shot(page, `${screen}-codes`);
}

test('a person adds an authenticator app from Security, confirms it by mail, and signs in with its code', async ({
  page,
}) => {
  const me = await person('sfweb');
  await signInWith(page, me);
  await page.goto('/app/profile?tab=security');
  await expect(page.getByRole('heading', { name: 'Authenticator Apps' })).toBeVisible();
  await expect(page.getByText('You have no authenticator app yet.')).toBeVisible();
  await shot(page, '94-security-empty');

  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(T.passwordWrong)).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  const secret = await addApp(page, me, '95-security');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Waiting for the emailed link')).toBeVisible();

  await confirmFromMail(page, me, '96-security');
  await page.getByRole('link', { name: /continue to the portal/ }).click();
  await page.goto('/app/profile?tab=security');
  await expect(page.getByText('In use', { exact: true })).toBeVisible();
  await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
  // The only app in use is not offered for removal.
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await shot(page, '97-security-in-use');

  await page.getByRole('button', { name: 'New recovery codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'New recovery codes' });
  await dialog.getByLabel('Password', { exact: true }).fill(me.password);
  await dialog.getByRole('button', { name: 'Get new codes' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);

  await signOut(page);
  await page.getByLabel('Username or Email Address').fill(me.username);
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Second Sign-In Step', level: 1 })).toBeVisible();
  await page.getByLabel('Authentication code').fill(await nextStepCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard/);
});

test.describe('a role that requires a second sign-in step', () => {
  let api: ExtraApi;
  test.beforeAll(async () => {
    api = await startExtraApi({ SECOND_FACTOR_REQUIRED_PERMISSIONS: 'READ_USERS' });
  });
  test.afterAll(async () => {
    await api?.stop();
  });

  test('sends the person to set one up before anything else, and the emailed link opens the portal', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: api.url });
    const page = await context.newPage();
    const me = await person('sfmust', 'User Support Read-Only');
    await page.goto('/');
    await page.getByLabel('Username or Email Address').fill(me.username);
    await page.getByLabel('Password', { exact: true }).fill(me.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/app\/sign-in-method$/);
    await expect(page.getByRole('heading', { name: 'Set Up a Second Sign-In Step', level: 1 })).toBeVisible();
    await shot(page, '98-enrol-required');
    // Nothing else opens meanwhile: the queue's calls are refused.
    const queue = await page.evaluate(async () => {
      const xsrf = localStorage.getItem('xsrfToken') ?? '';
      const res = await fetch('/rest/secure/user_management/user_requests/all', {
        headers: { 'x-xsrf-token': xsrf, accept: 'application/json' },
      });
      return res.status;
    });
    expect(queue).toBe(403);

    await addApp(page, me, '98-enrol');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('Follow the emailed link to finish')).toBeVisible();
    await confirmFromMail(page, me, '99-enrol');
    await page.getByRole('link', { name: /continue to the portal/ }).click();
    await expect(page).toHaveURL(/\/app\/dashboard/);
    await page.goto('/app/user-requests');
    await expect(page.getByRole('heading', { name: 'User Requests', level: 1 })).toBeVisible();
    await context.close();
  });
});

test("read-only staff see a person's second step; an administrator resets it after confirming", async ({ page }) => {
  const me = await person('sfstaff');
  const prisma = journeyPrisma();
  try {
    const key = journeyEnv().SECOND_FACTOR_KEY!;
    // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
    await enrolConfirmed(prisma, key, me, 'Phone');
    await issueRecoveryCodes(prisma, me.id, ARGON2_DEFAULTS);
  } finally {
    await prisma.$disconnect();
  }
  const section = page.getByRole('region', { name: 'Second Sign-In Step' });

  await signIn(page, 'readonly');
  await page.goto(`/app/users/${me.id}`);
  await expect(section.getByText('Authenticator app', { exact: true })).toBeVisible();
  await expect(section.getByText('10 of 10 recovery codes left')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Reset second sign-in step' })).toHaveCount(0);

  await signIn(page, 'admin');
  await page.goto(`/app/users/${me.id}`);
  await section.getByRole('button', { name: 'Reset second sign-in step' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Second Sign-In Step' });
  await shot(page, '99-reset-confirm');
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(section.getByRole('status')).toContainText('was reset');
  await expect(section.getByText('None', { exact: true })).toBeVisible();
  // The person is told at once.
  await expect
    .poll(async () =>
      (await readMail(process.env.MAIL_API_URL!)).some(
        (m) => m.subject === T.mailSubjectReset && m.to.some((t) => t.address === me.email),
      ),
    )
    .toBe(true);
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the Security tab and the add form are accessible', async ({ page }) => {
    const me = await person('sfphone');
    await signInWith(page, me);
    await page.goto('/app/profile?tab=security');
    await expect(page.getByRole('heading', { name: 'Recovery Codes' })).toBeVisible();
    await shot(page, '94-security-phone');
    await page.getByRole('button', { name: 'Add authenticator app' }).click();
    await addApp(page, me, '95-security-phone');
  });
});
