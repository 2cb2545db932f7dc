/**
 * The portal's single sign-on pages (issue 22; 000 §8 Single sign-on), at 1280 px and at phone size with axe:
 * - 'My applications' on the dashboard and the Profile's Access tab: a journey user holding a system with a
 *   single sign-on client sees it as a link to its initiate-login URI (with the provider's `iss`), in a new tab;
 * - the refusal page for every case with the spec's text; 'not authorized' offers 'Request access to <system>',
 *   which opens the request form with that system ticked, or the open request instead; signed out, the way
 *   back is the sign-in page;
 * - the sign-in step /app/sso/:uid: signed out it goes to sign-in and comes back after it; signed in it shows
 *   'Signing you in…' while it posts (here answered by the browser: the provider's answer is the other side's
 *   test), then follows the answer: on to the provider's URL, or to the refusal page.
 * The systems and the client are this journey's own and are removed afterwards.
 */
import crypto from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { SSO_LOGIN_PATH, SSO_REFUSAL_CASES, ssoRefusalText, type SsoLoginAnswer } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type JourneyUser, journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { signInAs } from './profile-change-support';
import { shot } from './support';

const tag = crypto.randomBytes(3).toString('hex');
const HELD = `SSO Journey App ${tag}`;
const WANTED = `SSO Journey Wanted ${tag}`;
const LAUNCH = 'http://127.0.0.1:4999/sso/start';

let prisma: PrismaClient;
let me: JourneyUser;
let held: number;
let wanted: number;

test.beforeAll(async () => {
  prisma = journeyPrisma();
  me = await makeJourneyUser(prisma, 'ssoapps', [{ roleName: 'Data Manager' }]);
  held = (await prisma.systemAccess.create({ data: { systemName: HELD, sort: 90 } })).id;
  wanted = (await prisma.systemAccess.create({ data: { systemName: WANTED, sort: 91 } })).id;
  await prisma.ssoClient.create({
    data: {
      clientId: `sso-journey-${tag}`,
      systemAccessId: held,
      isPublic: true,
      redirectUris: ['http://127.0.0.1:4999/sso/callback'],
      postLogoutRedirectUris: [],
      initiateLoginUri: LAUNCH,
    },
  });
  const record = await prisma.userAccess.findFirstOrThrow({ where: { portalUserId: me.id } });
  await prisma.userAccess.update({
    where: { id: record.id },
    data: { systemAccessIds: [...record.systemAccessIds, held] },
  });
});

test.afterAll(async () => {
  await prisma.userAccess.deleteMany({ where: { portalUserId: me.id } });
  await prisma.ssoClient.deleteMany({ where: { systemAccessId: held } });
  await prisma.systemAccess.deleteMany({ where: { id: { in: [held, wanted] } } });
  await prisma.$disconnect();
});

const refusedUrl = (kase: string, extra = '') => `/app/sso/refused?case=${kase}${extra}`;

/** Checks the 'My applications' link of the held system. */
async function expectHeldApplication(page: Page): Promise<void> {
  const section = page.getByRole('region', { name: 'My applications' });
  const link = section.getByRole('link', { name: new RegExp(HELD) });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  const href = new URL((await link.getAttribute('href'))!);
  expect(`${href.origin}${href.pathname}`).toBe(LAUNCH);
  expect(href.searchParams.get('iss')).toMatch(/\/oidc$/);
  expect(href.searchParams.has('target_link_uri')).toBe(false);
}

test('My applications on the dashboard and the Access tab', async ({ page }) => {
  await signInAs(page, me);
  await expectHeldApplication(page);
  await shot(page, '90-sso-my-applications-dashboard');
  await page.goto('/app/profile?tab=access');
  await expectHeldApplication(page);
  await shot(page, '91-sso-my-applications-access-tab');
});

test('the refusal page for every case, and the way to request access', async ({ page }) => {
  // The systems were made in the database behind the API's back: its reference list of systems may serve the
  // earlier list for up to a minute (REFERENCE_TTL_MS.configured), so the form is reloaded until it has them.
  test.setTimeout(240_000);
  for (const kase of SSO_REFUSAL_CASES) {
    await page.goto(refusedUrl(kase));
    await expect(page.getByRole('heading', { level: 1, name: 'Unable to sign you in' })).toBeVisible();
    await expect(page.getByText(ssoRefusalText(kase))).toBeVisible();
    // Nobody is signed in: the way back is the sign-in page.
    await expect(page.getByRole('link', { name: 'Go to the sign-in page' })).toBeVisible();
    await shot(page, `92-sso-refused-${kase}`);
  }
  await page.goto(refusedUrl('no-such-case'));
  await expect(page.getByText(ssoRefusalText('undetermined'))).toBeVisible();

  await signInAs(page, me);
  const name = encodeURIComponent(WANTED);
  await page.goto(refusedUrl('notAuthorized', `&systemId=${wanted}&systemName=${name}&openRequestId=4242`));
  await expect(page.getByRole('link', { name: 'View your open request' })).toHaveAttribute(
    'href',
    '/app/profile?tab=history',
  );
  await expect(page.getByRole('link', { name: `Request access to ${WANTED}` })).toHaveCount(0);
  await shot(page, '93-sso-refused-open-request');

  await page.goto(refusedUrl('notAuthorized', `&systemId=${wanted}&systemName=${name}`));
  await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toBeVisible();
  await shot(page, '94-sso-refused-not-authorized');
  await page.getByRole('link', { name: `Request access to ${WANTED}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Request New Access' })).toBeVisible();
  await expect(async () => {
    if (!(await page.getByRole('checkbox', { name: WANTED }).count())) await page.reload();
    await expect(page.getByRole('checkbox', { name: WANTED })).toBeChecked({ timeout: 5_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await expect(page.getByRole('checkbox', { name: HELD })).not.toBeChecked();
  await shot(page, '95-sso-request-access-preselected');
});

test('the sign-in step: sign-in first when signed out, then the provider or the refusal', async ({ page }) => {
  const uid = `journey${tag}`;
  const answers: SsoLoginAnswer[] = [
    { outcome: 'CONTINUE', redirectTo: '/app/profile?tab=account' },
    {
      outcome: 'REFUSED',
      case: 'notAuthorized',
      message: ssoRefusalText('notAuthorized'),
      system: { id: wanted, systemName: WANTED },
      openRequestId: null,
    },
  ];
  const posts: { xsrf: string | undefined; body: string | null }[] = [];
  let release: () => void = () => {};
  await page.route(`**${SSO_LOGIN_PATH(uid)}`, async (route) => {
    posts.push({ xsrf: route.request().headers()['x-xsrf-token'], body: route.request().postData() });
    await new Promise<void>((resolve) => (release = resolve));
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answers.shift()) });
  });

  // Signed out: to sign-in, and back to the step after it.
  await page.goto(`/app/sso/${uid}`);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.getByLabel('Username or Email Address').fill(me.username);
  await page.getByLabel('Password', { exact: true }).fill(me.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/sso/${uid}$`));
  await expect(page.getByRole('status')).toContainText('Signing you in…');
  await shot(page, '96-sso-step-signing-in');
  await expect.poll(() => posts.length).toBe(1);
  release();
  // CONTINUE: a full page load of the provider's URL (here a portal page).
  await expect(page).toHaveURL(/\/app\/profile\?tab=account/);
  expect(posts).toHaveLength(1);
  expect(posts[0]!.xsrf).toBeTruthy();
  expect(JSON.parse(posts[0]!.body ?? 'null')).toEqual({});

  // REFUSED: the refusal page with the system asked for.
  await page.goto(`/app/sso/${uid}`);
  await expect(page.getByRole('status')).toContainText('Signing you in…');
  await expect.poll(() => posts.length).toBe(2);
  release();
  await expect(page.getByText(ssoRefusalText('notAuthorized'))).toBeVisible();
  await expect(page.getByRole('link', { name: `Request access to ${WANTED}` })).toBeVisible();
  await expect(page).toHaveURL(/\/app\/sso\/refused\?case=notAuthorized/);
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('My applications and the refusal page at phone size', async ({ page }) => {
    await signInAs(page, me);
    await expectHeldApplication(page);
    await shot(page, 'phone-90-sso-my-applications');
    await page.goto(refusedUrl('notAuthorized', `&systemId=${wanted}&systemName=${encodeURIComponent(WANTED)}`));
    await expect(page.getByRole('link', { name: `Request access to ${WANTED}` })).toBeVisible();
    await shot(page, 'phone-91-sso-refused-not-authorized');
    await page.goto(refusedUrl('invalidLink'));
    await expect(page.getByText(ssoRefusalText('invalidLink'))).toBeVisible();
    await shot(page, 'phone-92-sso-refused-invalid-link');
  });
});
