/**
 * The dashboard and the user detail's password section (000 §2 /app/dashboard and User detail, §6 dashboard
 * visibility, §7 Visualizations and the user-management password calls, §8 resend alerts; issue 11):
 * - a requester sees what USER grants, their open request and latest decision, and no queues; sign-in lands
 *   with skipRefresh (no token refresh), a plain visit refreshes once; the parameters leave the address;
 * - a reviewer sees the open queues by kind, status and age as a chart and a table;
 * - keepAlert keeps the notification that led to the dashboard; without it the dashboard starts clean;
 * - an administrator clears a password-change restriction (after 'Attention!') and resends the initial
 *   email: the three 'Email Not Sent' reasons a screen can meet, then 'Email Successfully Sent' and the mail;
 * - with a Tableau server configured (the trusted-ticket stand-in, a second API), the visualization loads in
 *   its frame through a ticket.
 * Its users are its own (portal row + directory entry made here), so other journeys are not disturbed.
 */
import crypto from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { createPrisma, type PrismaClient } from '@portal/db';
import { DirectoryConfigSchema, addPerson } from '@portal/directory';
import { type TableauStandIn, startTableauStandIn } from '../support/tableau-stand-in';
import { type ExtraApi, linkFromMail, shot, signIn, signOut, startExtraApi, submitSignIn } from './support';

const tag = crypto.randomBytes(3).toString('hex');
const portalEnv = () => JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;

interface JourneyUser {
  id: number;
  username: string;
  email: string;
  password: string;
  lastName: string;
}

/**
 * A 'Network User' with a directory entry: `password` null leaves the initial password unset; `entry`
 * false makes a portal user without any directory entry.
 */
async function makeUser(
  prisma: PrismaClient,
  lastName: string,
  opts: { password?: string | null; entry?: boolean } = {},
): Promise<JourneyUser> {
  const username = `dash${lastName.toLowerCase()}${tag}`;
  const email = `${username}@e2e.portal.test`;
  const password = opts.password === undefined ? `Dash-${tag}-Pw9!x` : (opts.password ?? '');
  const role = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
  const user = await prisma.portalUser.create({
    data: {
      username,
      firstName: 'Dana',
      lastName: `${lastName}${tag}`,
      email,
      portalRoles: { create: [{ portalRoleId: role.id }] },
    },
  });
  if (opts.entry !== false) {
    const uuid = await addPerson(DirectoryConfigSchema.parse(portalEnv()), {
      username,
      firstName: 'Dana',
      lastName: `${lastName}${tag}`,
      email,
      gecos: '',
      uidNumber: 70_000 + user.id,
      ...(opts.password === null ? {} : { password }),
    });
    await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
  }
  return { id: user.id, username, email, password, lastName: `${lastName}${tag}` };
}

/** A request row of `user` (no workflow runs for it; marked started so the reconciler leaves it alone). */
async function requestRow(
  prisma: PrismaClient,
  userId: number,
  status: 'PENDING_REVIEW' | 'APPROVED',
  daysAgo: number,
) {
  const role = await prisma.studyRole.findFirstOrThrow({ where: { roleName: 'Data Manager' } });
  const when = new Date(Date.now() - daysAgo * 86_400_000);
  await prisma.accessModRequest.create({
    data: {
      workflowId: `dashboard-e2e-${tag}-${status}`,
      requestType: 'NEW',
      requestStatus: status,
      subjectUserId: userId,
      requesterUserId: userId,
      accessControls: [
        { questionNum: 1, roleName: role.roleName, siteCodes: [], laoIds: [], studyNames: [], systemAccessIds: [] },
      ],
      lastModifiedBy: 'dashboard-e2e',
      sysdat: when,
      dchng: status === 'APPROVED' ? new Date() : when,
      workflowStartedAt: new Date(),
    },
  });
}

/** Client-side navigation (keeps the page and its notifications), as a link inside the app would. */
async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

let prisma: PrismaClient;
let requester: JourneyUser;
let uninitialised: JourneyUser;
let noEntry: JourneyUser;

test.beforeAll(async () => {
  prisma = createPrisma(portalEnv().DATABASE_URL!);
  requester = await makeUser(prisma, 'Requester');
  uninitialised = await makeUser(prisma, 'Invited', { password: null });
  noEntry = await makeUser(prisma, 'Local', { entry: false });
  await requestRow(prisma, requester.id, 'PENDING_REVIEW', 10);
  await requestRow(prisma, requester.id, 'APPROVED', 20);
});
test.afterAll(async () => {
  await prisma?.$disconnect();
});

test('the requester and reviewer dashboards, skipRefresh and keepAlert', async ({ page }) => {
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/secure/token/refresh')) refreshes.push(r.url());
  });

  await test.step('a requester: what USER grants, the open request and the latest decision, no queues', async () => {
    await submitSignIn(page, requester.username, requester.password);
    // Sign-in lands with skipRefresh=true; the dashboard handles it and takes it off the address.
    await expect(page).toHaveURL(/\/app\/dashboard$/);
    await expect(page.getByTestId('highest-permission')).toHaveText('USER');
    await expect(page.getByTestId('permission-grants')).toContainText('Dashboard access');
    await expect(page.getByTestId('open-requests-count')).toHaveText('1');
    await expect(page.getByRole('table', { name: 'My open requests' })).toContainText('Pending Review');
    await expect(page.getByRole('table', { name: 'Latest decisions on my requests' })).toContainText('Approved');
    await expect(page.getByRole('heading', { name: 'Open user requests' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Analytics' })).toHaveCount(0);
    expect(refreshes).toEqual([]);
    await shot(page, '70-dashboard-requester');
  });

  await test.step('without skipRefresh the dashboard refreshes the token once', async () => {
    await page.goto('/app/dashboard');
    await expect(page.getByTestId('open-requests-count')).toHaveText('1');
    await expect.poll(() => refreshes.length).toBe(1);
    await signOut(page);
  });

  await test.step('a reviewer: open queues by kind, status and age, as a chart and a table', async () => {
    await signIn(page, 'reviewer');
    await expect(page.getByTestId('highest-permission')).toHaveText('WRITE_USERS');
    const queues = page.getByRole('region', { name: 'Open user requests' });
    await expect(queues.getByTestId('open-queue-total')).toHaveText(/^[1-9]\d*$/);
    await expect(queues.getByTestId('queue-chart')).toBeVisible();
    const table = queues.getByRole('table', { name: 'Open user requests by kind, status and age' });
    await expect(table.getByRole('row').filter({ hasText: 'Pending Review' }).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My requests' })).toBeVisible();
    await shot(page, '71-dashboard-reviewer');
    await signOut(page);
  });

  await test.step('keepAlert keeps the notification that led here; without it the dashboard starts clean', async () => {
    await signIn(page, 'admin');
    const saveDetails = async (jobTitle: string) => {
      await page.goto(`/app/users/${requester.id}?tab=details`);
      await page.getByRole('textbox', { name: 'Job Title (optional)' }).fill(jobTitle);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('User Details Updated')).toBeVisible();
      // The pointer rests on the notification, which pauses its 7,500 ms close (001 §9) however long the
      // way to the dashboard takes on a busy machine.
      await page.getByText('User Details Updated').hover();
      await expect(page).toHaveURL(/\/app\/users(\?|$)/);
    };
    await saveDetails(`Coordinator ${tag}`);
    await navigateInApp(page, '/app/dashboard?keepAlert=true&skipRefresh=true');
    await expect(page).toHaveURL(/\/app\/dashboard$/);
    await expect(page.getByTestId('highest-permission')).toHaveText('ADMIN');
    await expect(page.getByText('User Details Updated')).toBeVisible();

    await saveDetails(`Manager ${tag}`);
    await page.getByRole('link', { name: 'Portal Gateway' }).click();
    await expect(page.getByTestId('highest-permission')).toHaveText('ADMIN');
    await expect(page.getByText('User Details Updated')).toHaveCount(0, { timeout: 2_000 });
  });
});

test("the user detail's password section: restriction and 'Resend initial email'", async ({ page }) => {
  await signIn(page, 'admin');
  const section = page.getByRole('region', { name: 'Password', exact: true });
  const open = async (u: JourneyUser) => {
    await page.goto(`/app/users/${u.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Edit User Dana ${u.lastName}` })).toBeVisible();
  };
  const resend = async (title: string, text: string) => {
    await section.getByRole('button', { name: 'Resend initial email' }).click();
    const alert = section.getByTestId('password-alert');
    await expect(alert).toContainText(title);
    await expect(alert).toContainText(text);
  };

  await test.step('a fresh password is restricted until a date; the restriction is removed after a confirmation', async () => {
    await open(requester);
    await expect(section.getByTestId('password-managed')).toHaveText('Password managed by the portal: Yes');
    await expect(section.getByTestId('password-initial-set')).toHaveText('Initial password set: Yes');
    await expect(section.getByTestId('password-restriction')).toContainText(/until \d\d\/\d\d\/\d{4} \d/);
    await shot(page, '72-user-password-restricted');
    await section.getByRole('button', { name: 'Remove password-change time restriction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Attention!' });
    await expect(dialog).toContainText(`Dana ${requester.lastName}`);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(section.getByTestId('password-restriction')).toHaveText(
      'Not restricted: the user may change their password now.',
    );
    await resend('Email Not Sent', 'This user has already set their initial password');
  });

  await test.step('a user without a directory account is not permitted', async () => {
    await open(noEntry);
    await expect(section.getByTestId('password-managed')).toHaveText('Password managed by the portal: No');
    await resend('Email Not Sent', 'This user is not permitted to change their password using the Portal Gateway');
  });

  await test.step('a user who never set a password gets the mail', async () => {
    await open(uninitialised);
    await expect(section.getByTestId('password-initial-set')).toHaveText('Initial password set: No');
    await resend('Email Successfully Sent', 'Initial email has been resent.');
    await shot(page, '73-user-password-resent');
    expect(await linkFromMail(uninitialised.email, 'set your password')).toMatch(/\/set-initial-password\//);
  });

  await test.step('read-only staff see the facts, neither the restriction nor the resend', async () => {
    await signOut(page);
    await signIn(page, 'readonly');
    await page.goto(`/app/users/${requester.id}`);
    await expect(section.getByTestId('password-managed')).toHaveText('Password managed by the portal: Yes');
    await expect(section.getByRole('button', { name: 'Resend initial email' })).toHaveCount(0);
    await expect(section.getByText('Password-change time restriction')).toHaveCount(0);
  });
});

test.describe('with a Tableau server (the trusted-ticket stand-in)', () => {
  let tableau: TableauStandIn;
  let api: ExtraApi;

  test.beforeAll(async () => {
    tableau = await startTableauStandIn([requester.username]);
    api = await startExtraApi({
      TABLEAU_SERVER_URL: tableau.url,
      TABLEAU_SITE: 'network',
      TABLEAU_VISUALIZATIONS: JSON.stringify([
        {
          id: 1,
          filePath: 'Requests/Overview',
          title: 'Requests overview',
          description: 'Requests filed per month.',
          tableauSite: 'network',
        },
      ]),
    });
  });
  test.afterAll(async () => {
    await api?.stop();
    await tableau?.close();
  });

  test('the visualization opens in its frame through a trusted ticket', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: api.url });
    const page = await context.newPage();
    await submitSignIn(page, requester.username, requester.password);
    await expect(page).toHaveURL(/\/app\/dashboard$/);
    const analytics = page.getByRole('region', { name: 'Analytics' });
    await expect(analytics.getByRole('heading', { name: 'Requests overview' })).toBeVisible();
    const frame = page.frameLocator('iframe[title="Requests overview"]');
    await expect(frame.getByRole('heading', { name: 'View Requests/Overview' })).toBeVisible();
    expect(tableau.requests.at(-1)).toEqual({ username: requester.username, targetSite: 'network' });
    expect(tableau.tickets.size).toBe(0); // the ticket was redeemed
    await shot(page, '74-dashboard-analytics');
    await context.close();
  });
});
