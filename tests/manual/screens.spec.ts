/**
 * The user manual's screenshots (docs/manual/*.md refer to each by file name): each persona walks through the
 * screens its chapter describes, and every picture is taken once the screen has settled (no loader, no
 * skeleton, the network quiet). Run by `npm run manual:screens` (tests/manual/playwright.config.ts); the
 * pictures are committed, the PDF is built from them (scripts/src/manual/build-pdf.ts).
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { pick, signIn, signInWith, signOut } from '../e2e/support';
import { journeyPrisma, makeJourneyUser } from '../support/journey-users';

const SCREENS = path.join(import.meta.dirname, '..', '..', 'docs', 'manual', 'screens');

/** Waits until nothing loads any more: no Mantine loader or skeleton, the network idle. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root')).toHaveCount(0, { timeout: 20_000 });
  // Mantine's transitions are off (reduced motion); one frame for the last layout.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/** A part of the 1280 x 800 viewport, in CSS pixels. */
interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Saves the viewport, a part of it (`clip`) or one element (`target`) as docs/manual/screens/<name>.png once
 * the screen has settled.
 */
async function screen(page: Page, name: string, target?: Locator | Clip): Promise<void> {
  await settle(page);
  const file = path.join(SCREENS, `${name}.png`);
  if (!target) await page.screenshot({ path: file });
  else if ('screenshot' in target) await target.screenshot({ path: file });
  else await page.screenshot({ path: file, clip: target });
}

/** The public pages' card (sign-in, forgot password) with some room around it. */
const PUBLIC_CARD: Clip = { x: 340, y: 40, width: 600, height: 520 };

test.describe.configure({ mode: 'serial' });

test('signing in and passwords', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill('user');
  await screen(page, 'sign-in', PUBLIC_CARD);
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await screen(page, 'forgot-password', PUBLIC_CARD);
  await signIn(page, 'user');
  await page.goto('/app/change-password');
  await expect(page.getByRole('heading', { name: 'Change Password', level: 1 })).toBeVisible();
  await screen(page, 'change-password');
  await signOut(page);
});

test('registering and requesting an account for someone else', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Need an account?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screen(page, 'register');
  await signIn(page, 'user');
  await page.getByRole('navigation').getByRole('link', { name: 'Request a User' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screen(page, 'request-a-user');
  await signOut(page);
});

test('a network user: dashboard, profile, access request, applications', async ({ page }) => {
  await signIn(page, 'user');
  await screen(page, 'dashboard-user');
  const apps = page.getByRole('region', { name: 'My applications' });
  if (await apps.count()) await screen(page, 'my-applications', apps);

  await page.goto('/app/profile?tab=account');
  await expect(page.getByRole('tab', { name: 'Account', selected: true })).toBeVisible();
  await screen(page, 'profile-account');
  await page.getByRole('tab', { name: 'Access' }).click();
  await expect(page.getByRole('link', { name: 'Request New Access' })).toBeVisible();
  await screen(page, 'profile-access');

  await page.getByRole('link', { name: 'Request New Access' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await pick(page, page.getByRole('combobox', { name: /^Study Role/ }), 'Data Manager');
  await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
  await page.getByLabel(/^Comments/).fill('I join the data management team of this study.');
  await screen(page, 'request-access');
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page).toHaveURL(/tab=history/);
  await screen(page, 'profile-history');
  await signOut(page);
});

test('a reviewer: dashboard, queue, a review', async ({ page }) => {
  await signIn(page, 'reviewer');
  await screen(page, 'dashboard-queues', page.getByRole('region', { name: 'Open user requests' }));
  await page.getByRole('navigation').getByRole('link', { name: 'User Requests', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'User Requests', level: 1 })).toBeVisible();
  await screen(page, 'user-requests');
  await page.getByRole('textbox', { name: 'Filter user requests' }).fill('user@portal.test');
  await page.getByRole('row').filter({ hasText: 'user@portal.test' }).first().click();
  await expect(page.getByRole('heading', { name: 'Review Access Change Request', level: 1 })).toBeVisible();
  await screen(page, 'review-access-change');
  await signOut(page);
});

test('LAO staff: access changes for many users', async ({ page }) => {
  await signIn(page, 'laostaff');
  await page.getByRole('link', { name: 'Request Access Change for Others' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await pick(page, page.getByRole('combobox', { name: 'AO / LAO' }));
  const selectAll = page.getByRole('button', { name: /^Select all \d+ users$/ });
  await expect(selectAll).toBeVisible({ timeout: 20_000 });
  await page.getByRole('table').getByRole('checkbox').nth(1).check();
  await page.getByRole('table').getByRole('checkbox').nth(2).check();
  await screen(page, 'proxy-access-change');
  await signOut(page);
});

test('an administrator: users, configuration, audit trail, reports', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Active', exact: true, selected: true })).toBeVisible();
  await screen(page, 'users-list');
  await page.getByLabel('Filter users').fill('user@portal.test');
  await page.getByRole('row').filter({ hasText: 'user@portal.test' }).first().click();
  await expect(page.getByRole('heading', { name: /^Edit User/, level: 1 })).toBeVisible();
  await screen(page, 'user-account');
  await page.getByRole('tab', { name: 'Access' }).click();
  await expect(page.getByRole('button', { name: 'Add new role' })).toBeVisible();
  await screen(page, 'user-access');

  for (const [tab, name] of [
    ['portalRoles', 'configure-portal-roles'],
    ['studyRoles', 'configure-study-roles'],
    ['systems', 'configure-systems'],
  ] as const) {
    await page.goto(`/app/configure/?tab=${tab}`);
    await expect(page.getByRole('heading', { name: 'Configure', level: 1 })).toBeVisible();
    await screen(page, name);
  }
  await page.getByRole('link', { name: 'Electronic Data Capture', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screen(page, 'configure-system', page.locator('main'));

  await page.getByRole('navigation').getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail', level: 1 })).toBeVisible();
  await screen(page, 'audit-trail');
  await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  // The counts by status load one by one ('…' until then).
  await expect(page.getByRole('cell', { name: '…' })).toHaveCount(0);
  await screen(page, 'reports');
  await signOut(page);
});

test('access review campaigns: the form, a reviewer deciding, the campaign page', async ({ page }) => {
  // Three people of MA036 whose access its LAO staff review (the seed's generated users hold AOs only).
  const prisma = journeyPrisma();
  const roles = await prisma.studyRole.findMany({ include: { systems: true } });
  const people = [
    ['rchen', 'Riley', 'Chen', 'Site Investigator'],
    ['sokafor', 'Sam', 'Okafor', 'Data Manager'],
    ['tnguyen', 'Taylor', 'Nguyen', 'Site Investigator'],
  ] as const;
  for (const [username, firstName, lastName, roleName] of people) {
    if (await prisma.portalUser.findUnique({ where: { username } })) continue;
    await prisma.portalUser.create({
      data: {
        username,
        firstName,
        lastName,
        email: `${username}@example.org`,
        userAccesses: {
          create: {
            roleName,
            laoIds: ['MA036'],
            systemAccessIds: roles.find((r) => r.roleName === roleName)!.systems.map((s) => s.systemId),
            createdBy: 'manual',
            lastModifiedBy: 'manual',
          },
        },
      },
    });
  }
  await prisma.$disconnect();

  await signIn(page, 'admin');
  await page.goto('/app/access-review-campaigns/new');
  await page.getByRole('textbox', { name: /^Name/ }).fill('MA036 spring access review');
  await page.getByRole('combobox', { name: 'LAOs' }).fill('MA036');
  await page.getByRole('option', { name: /^MA036 - / }).click();
  await page.keyboard.press('Escape');
  await screen(page, 'access-review-new', page.locator('main'));
  await page.getByRole('button', { name: 'Start campaign' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Open', { timeout: 60_000 });
  const campaignUrl = new URL(page.url()).pathname;
  await signOut(page);

  await signIn(page, 'laostaff');
  await page.getByRole('navigation').getByRole('link', { name: 'Access Reviews' }).click();
  const table = page.getByRole('table', { name: 'Review items' });
  await table.getByRole('checkbox', { name: 'Select Data Manager of Sam Okafor' }).check();
  await page.getByRole('button', { name: 'Keep', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Per-item results' })).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss results' }).click();
  await table.getByRole('checkbox', { name: 'Select Site Investigator of Riley Chen' }).check();
  await screen(page, 'access-reviews');
  await signOut(page);

  await signIn(page, 'admin');
  await page.goto(campaignUrl);
  await expect(page.getByTestId('decisions-chart')).toBeVisible();
  await screen(page, 'access-review-campaign');
  await signOut(page);
});

test('approval policies: the policy, awaiting my approval, deciding a stage', async ({ page }) => {
  // A study role of its own with a one-stage policy (LAO staff): a policy on a seeded role would add a stage
  // to every later request for it. A person of its own files a request for it at MA036.
  const prisma = journeyPrisma();
  const gateway = await prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } });
  const roleName = 'Regulatory Coordinator';
  const role =
    (await prisma.studyRole.findUnique({ where: { roleName } })) ??
    (await prisma.studyRole.create({
      data: {
        roleName,
        description: 'Keeps the regulatory binder of the site',
        siteRequired: true,
        allowAOs: false,
        systems: { create: [{ systemId: gateway.id }] },
      },
    }));
  if (!(await prisma.approvalPolicy.findFirst({ where: { studyRoleId: role.id } }))) {
    await prisma.approvalPolicy.create({
      data: {
        studyRoleId: role.id,
        stages: [{ approvers: 'LAO_STAFF', deadlineDays: 5, reminderDays: 1, escalateTo: 'USER_SUPPORT' }],
        lastModifiedBy: 'admin',
      },
    });
  }
  const [lao] = await prisma.site.findMany({ where: { laoCode: 'MA036' } });
  const person = await makeJourneyUser(prisma, 'manual');
  await prisma.$disconnect();

  await signIn(page, 'admin');
  await page.goto('/app/configure/?tab=approvalPolicies');
  await expect(page.getByRole('heading', { name: 'Study approvers', level: 2 })).toBeVisible();
  await screen(page, 'configure-approval-policies');
  await page.getByRole('row').filter({ hasText: roleName }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screen(page, 'approval-policy', page.locator('main'));
  await signOut(page);

  await signInWith(page, person);
  await page.goto('/app/profile?tab=access');
  await page.getByRole('link', { name: 'Request New Access' }).click();
  await pick(page, page.getByRole('combobox', { name: 'Study Role' }), roleName);
  await pick(page, page.getByRole('combobox', { name: /^LAOs/ }), `MA036 - ${lao!.siteName}`);
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page).toHaveURL(/tab=history/);
  await signOut(page);

  await signIn(page, 'laostaff');
  await page.getByRole('navigation').getByRole('link', { name: 'Awaiting my approval' }).click();
  const row = page.getByRole('row').filter({ hasText: person.email });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await screen(page, 'awaiting-approval');
  await row.getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Decide Approval Stage', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('Known to the MA036 office.');
  // The viewport, scrolled to the stages and the decision (a picture of all of main would repeat the top bar).
  await page.getByRole('button', { name: 'Approve stage' }).scrollIntoViewIfNeeded();
  await page.getByRole('textbox', { name: 'Comment', exact: true }).blur();
  await screen(page, 'stage-decision');
  await signOut(page);
});
