/**
 * The demo study system 'Electronic Data Capture (demo)' (issue 22 "A real relying party to try it with" and
 * its Done-when), a real relying party on http://127.0.0.1 while the portal is on http://localhost (two sites):
 * - a person holding 'Electronic Data Capture' opens it from 'My applications' (a new tab), goes through the
 *   portal's sign-in step without signing in again and lands signed in there, with their study access;
 * - once a reviewer removes that system on the user's Access tab, the demo's next refresh fails ('Your access to
 *   this system has ended.') and its next sign-in ends on the portal's 'not authorized' page with 'Request access
 *   to Electronic Data Capture';
 * - a person without the system who opens the demo's sign-in gets the same page;
 * - the demo's 'Sign in with a second step' (acr_values = the multi-factor level): a session opened with the
 *   password alone is asked for the authenticator code first, and the demo shows the level it got; a person with
 *   no second factor ends on the portal's page that says why.
 * axe (WCAG 2.2 AA) on the demo system's pages at 1280 px and at phone size. The users are this journey's own.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ssoRefusalText } from '@portal/contract';
import { totpCode } from '../../api/src/auth/totp';
import type { PrismaClient } from '@portal/db';
import { type JourneyUser, journeyEnv, journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { signInAs } from './profile-change-support';
import { shot, signIn, signOut } from './support';
import { enrolConfirmed } from '../support/totp-codes';

const SYSTEM = 'Electronic Data Capture';

let prisma: PrismaClient;
/** The AO and the study of the access records made here (a relation of the network, so a reviewer can save them). */
let site: string;
let studies: string[];
/** The demo's initiate-login URI, as the seed registered it (http://127.0.0.1:<port>/login). */
let demoLogin: string;

test.beforeAll(async () => {
  prisma = journeyPrisma();
  const client = await prisma.ssoClient.findUniqueOrThrow({ where: { clientId: 'edc-demo' } });
  demoLogin = client.initiateLoginUri!;
  expect(new URL(demoLogin).hostname).toBe('127.0.0.1');
  const relation = await prisma.siteRelation.findFirstOrThrow({
    where: { laoCode: 'MA036', NOT: { siteCode: 'MA036' } },
    orderBy: { id: 'asc' },
  });
  site = relation.siteCode;
  studies = [relation.studyName];
});

test.afterAll(async () => prisma.$disconnect());

/** A journey user holding 'Electronic Data Capture' through a Clinical Research Associate record. */
const withEdc = (prefix: string) =>
  makeJourneyUser(prisma, prefix, [
    { roleName: 'Clinical Research Associate', siteCodes: [site], studyNames: studies },
  ]);

/** Checks the demo's home page of `user`: who came in and the access record's row. */
async function expectSignedIn(demo: Page, user: JourneyUser): Promise<void> {
  await expect(demo).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(refresh)?$/);
  await expect(demo.getByRole('heading', { level: 1, name: 'Your studies' })).toBeVisible();
  await expect(demo.getByText(`Signed in as ${user.firstName} ${user.lastName} (${user.email})`)).toBeVisible();
  const row = demo.getByRole('row', { name: /Clinical Research Associate/ });
  await expect(row).toContainText(site);
  for (const study of studies) await expect(row).toContainText(study);
}

/** Clicks 'Electronic Data Capture' under 'My applications' on the dashboard. @returns the new tab. */
async function openFromMyApplications(page: Page, context: BrowserContext): Promise<Page> {
  const launch = page.getByRole('region', { name: 'My applications' }).getByRole('link', { name: new RegExp(SYSTEM) });
  const [demo] = await Promise.all([context.waitForEvent('page'), launch.click()]);
  return demo;
}

/** Expects the portal's 'not authorized' page for the demo's system. */
async function expectNotAuthorized(page: Page): Promise<void> {
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/app\/sso\/refused\?case=notAuthorized/);
  await expect(page.getByText(ssoRefusalText('notAuthorized'))).toBeVisible();
  await expect(page.getByRole('link', { name: `Request access to ${SYSTEM}` })).toBeVisible();
}

test('signed in at the demo system from My applications; a reviewer removing it ends it', async ({ page, context }) => {
  const user = await withEdc('edcdemo');
  await signInAs(page, user);
  const demo = await openFromMyApplications(page, context);
  await expectSignedIn(demo, user);
  await expect(demo).toHaveTitle('Your studies · Electronic Data Capture (demo)');
  await shot(demo, '97-sso-demo-signed-in');

  // A refresh while the access holds: the same studies, read again from the portal.
  await demo.getByRole('link', { name: 'Refresh my access' }).click();
  await expect(demo.getByRole('status')).toHaveText('Your access was refreshed from the Portal Gateway.');
  await expectSignedIn(demo, user);

  // A reviewer takes the system away on the user's Access tab; the user is back in the portal.
  await signOut(page);
  await signIn(page, 'reviewer');
  await page.goto(`/app/users/${user.id}?tab=access`);
  await page.getByRole('group', { name: 'Role #1' }).getByRole('checkbox', { name: SYSTEM }).uncheck();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText("User's Access Updated").first()).toBeVisible();
  await signOut(page);
  await signInAs(page, user);

  // The demo's next refresh fails; its next sign-in ends on the portal's 'not authorized' page.
  await demo.getByRole('link', { name: 'Refresh my access' }).click();
  await expect(demo.getByRole('alert')).toHaveText('Your access to this system has ended.');
  await shot(demo, '98-sso-demo-access-ended');
  await demo.getByRole('link', { name: 'Sign in with the Portal Gateway' }).click();
  await expectNotAuthorized(demo);
});

test('a person without the system who opens the demo sign-in sees the not-authorized page', async ({ page }) => {
  const user = await makeJourneyUser(prisma, 'edcnone', [{ roleName: 'Research Pharmacist', siteCodes: ['MA036'] }]);
  await page.goto(demoLogin.replace(/\/login$/, '/'));
  await expect(page.getByRole('heading', { level: 1, name: `Welcome to ${SYSTEM} (demo)` })).toBeVisible();
  await shot(page, '99-sso-demo-signed-out');
  await signInAs(page, user);
  await page.goto(demoLogin);
  await expectNotAuthorized(page);
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the demo system's pages at phone size", async ({ page }) => {
    const user = await withEdc('edcphone');
    await page.goto(demoLogin.replace(/\/login$/, '/'));
    await shot(page, 'phone-97-sso-demo-signed-out');
    await signInAs(page, user);
    await page.goto(demoLogin);
    await expectSignedIn(page, user);
    await shot(page, 'phone-98-sso-demo-signed-in');
    await prisma.userAccess.updateMany({ where: { portalUserId: user.id }, data: { inactive: true } });
    await page.getByRole('link', { name: 'Refresh my access' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your access to this system has ended.');
    await shot(page, 'phone-99-sso-demo-access-ended');
  });
});

test.describe('a system that asks for a second step', () => {
  test('steps a password-only session up with the code, and the system sees the level', async ({ page, context }) => {
    const user = await withEdc('edcmf');
    await signInAs(page, user);
    // Enrolled after this sign-in (through the real store): the session holds the password alone.
    const key = journeyEnv().SECOND_FACTOR_KEY!;
    // Confirmed with no code used: the sign-in takes the current one (support/totp-codes.ts).
    const enrolment = await enrolConfirmed(prisma, key, user, 'Phone');

    const demo = await context.newPage();
    await demo.goto(new URL('/', demoLogin).href);
    await demo.getByRole('link', { name: 'Sign in with a second step' }).click();
    await expect(demo.getByRole('heading', { name: 'Second Sign-In Step', level: 1 })).toBeVisible();
    await shot(demo, '99-sso-step-up');
    await demo.getByLabel('Authentication code').fill(await totpCode(enrolment.secret));
    await demo.getByRole('button', { name: 'Verify' }).click();
    await expectSignedIn(demo, user);
    await expect(
      demo.getByText(/^Signed in with your password and a second step \(urn:portal:acr:mfa; /),
    ).toBeVisible();
    await shot(demo, '99-sso-step-up-signed-in');
  });

  test('ends on the page that says why for a person without a second factor', async ({ page, context }) => {
    const user = await withEdc('edcno');
    await signInAs(page, user);
    const demo = await context.newPage();
    await demo.goto(new URL('/', demoLogin).href);
    await demo.getByRole('link', { name: 'Sign in with a second step' }).click();
    await expect(demo).toHaveURL(/\/app\/sso\/refused\?case=noSecondFactor/);
    await expect(demo.getByText(ssoRefusalText('noSecondFactor'))).toBeVisible();
  });
});
