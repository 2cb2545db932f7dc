/**
 * The profile's Details tab and the Requests History (000 §2 Profile screen and User detail, §4 Saving /
 * Unsaved changes / Country change; 001 §2.9; issue 11):
 * - a user edits their Organization Details and Mailing Address: a new country clears the state and loads its
 *   states; leaving the tab with changes asks first ('Go Back' keeps them); the save shows 'User Profile
 *   Updated' and the values are there after a reload; saving again is 'There are no changes to submit.'; a
 *   refused phone number is named under its field; 'Abandon Changes' leaves the tab;
 * - the same user's Requests History: the note, access requests, profile-change requests and
 *   registration-by-proxy requests, newest first, no reviewer comments, '---' for missing values;
 * - an administrator opens the user's 'Requests History' tab and sees the reviewer comments too.
 * Its user and request rows are its own (made here), so other journeys are not disturbed.
 */
import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createPrisma, type PrismaClient } from '@portal/db';
import { DirectoryConfigSchema, addPerson } from '@portal/directory';
import { expectNoSidewaysScroll, pick, shot, signIn, signOut, submitSignIn } from './support';

const tag = crypto.randomBytes(3).toString('hex');
const portalEnv = () => JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;
const username = `hist${tag}`;
const password = `Hist-${tag}-Pw9!x`;
const lastName = `Historian${tag}`;
const day = (n: number) => new Date(Date.now() - n * 86_400_000);

let prisma: PrismaClient;
let userId: number;

test.beforeAll(async () => {
  prisma = createPrisma(portalEnv().DATABASE_URL!);
  const role = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
  const email = `${username}@e2e.portal.test`;
  const user = await prisma.portalUser.create({
    data: { username, firstName: 'Hana', lastName, email, portalRoles: { create: [{ portalRoleId: role.id }] } },
  });
  userId = user.id;
  const uuid = await addPerson(DirectoryConfigSchema.parse(portalEnv()), {
    username,
    firstName: 'Hana',
    lastName,
    email,
    gecos: '',
    uidNumber: 71_000 + user.id,
    password,
  });
  await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });

  // Resolved rows only (no workflow runs for them; marked started so the reconciler leaves them alone), so no
  // reviewer queue gains an open request.
  const dm = await prisma.studyRole.findFirstOrThrow({ where: { roleName: 'Data Manager' } });
  const block = {
    questionNum: 1,
    roleName: dm.roleName,
    siteCodes: [],
    laoIds: [],
    studyNames: [],
    systemAccessIds: [],
  };
  for (const [i, status, daysAgo, comments] of [
    [1, 'APPROVED', 30, 'first access ask'],
    [2, 'REJECTED', 5, 'second access ask'],
  ] as const) {
    await prisma.accessModRequest.create({
      data: {
        workflowId: `history-e2e-${tag}-access-${i}`,
        requestType: 'NEW',
        requestStatus: status,
        subjectUserId: user.id,
        requesterUserId: user.id,
        accessControls: [block],
        requesterComments: comments,
        reviewerComments: `reviewer note ${i} ${tag}`,
        lastModifiedBy: 'history-e2e',
        sysdat: day(daysAgo),
        dchng: day(daysAgo - 1),
        workflowStartedAt: new Date(),
      },
    });
  }
  await prisma.profileChangeRequest.create({
    data: {
      workflowId: `history-e2e-${tag}-profile`,
      requestStatus: 'REJECTED',
      portalUserId: user.id,
      firstName: 'Hannah',
      lastName,
      email,
      originalFirstName: 'Hana',
      originalLastName: lastName,
      originalEmail: email,
      requesterComments: 'spelling of my name',
      reviewerComments: `profile reviewer note ${tag}`,
      lastModifiedBy: 'history-e2e',
      sysdat: day(10),
      dchng: day(9),
      workflowStartedAt: new Date(),
    },
  });
  await prisma.registration.create({
    data: {
      workflowId: `history-e2e-${tag}-registration`,
      registrationStatus: 'DENIED',
      firstName: 'Proxied',
      lastName: `Person${tag}`,
      jobTitle: '',
      organizationName: 'North Lead',
      phoneNumber: '555-0199',
      phoneExtension: '7',
      email: `proxied${tag}@e2e.portal.test`,
      accessControls: [block],
      isProxy: true,
      proxyUserId: user.id,
      proxyName: `Hana ${lastName}`,
      proxyEmail: email,
      lastModifiedBy: 'history-e2e',
      sysdat: day(3),
      dchng: day(2),
      workflowStartedAt: new Date(),
    },
  });
});
test.afterAll(async () => {
  await prisma?.$disconnect();
});

test('a user edits their details and reads their own Requests History', async ({ page }) => {
  await submitSignIn(page, username, password);
  await expect(page).toHaveURL(/\/app\/dashboard/);
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  // Country and State are Selects: Mantine gives their inputs the combobox role.
  const country = page.getByRole('combobox', { name: 'Country (optional)', exact: true });
  const state = page.getByRole('combobox', { name: 'State (optional)', exact: true });

  await test.step('Details: every field editable, a new country clears the state and loads its states', async () => {
    await page.goto('/app/profile?tab=details');
    await expect(page.getByRole('tab', { name: 'Details', selected: true })).toBeVisible();
    await expect(field('Phone Extension (optional)')).toHaveAttribute('maxlength', '5');
    await field('Organization Name (optional)').fill('North Lead');
    await field('Job Title (optional)').fill('Coordinator');
    await field('Phone Number (optional)').fill('555-0100');
    await field('Phone Extension (optional)').fill('12');
    await field('Address Line 1 (optional)').fill('1 Main Street');
    await field('City (optional)').fill('Austin');
    await pick(page, country, 'Canada');
    await pick(page, state, 'Ontario');
    await pick(page, country, 'United States');
    await expect(state).toHaveValue('');
    await pick(page, state, 'Texas');
    await field('Postal Code (optional)').fill('73301');
    await shot(page, '86-profile-details');
  });

  await test.step("leaving the tab with changes asks first; 'Go Back' keeps them", async () => {
    await page.getByRole('tab', { name: 'Access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved Changes' });
    await expect(dialog).toContainText('You have unsaved changes on this page');
    await dialog.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/tab=details/);
    await expect(field('City (optional)')).toHaveValue('Austin');
  });

  await test.step("Save: 'User Profile Updated', and the values are there after a reload", async () => {
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('User Profile Updated')).toBeVisible();
    await page.reload();
    await expect(field('City (optional)')).toHaveValue('Austin');
    await expect(field('Phone Extension (optional)')).toHaveValue('12');
    await expect(country).toHaveValue('United States');
    await expect(state).toHaveValue('Texas');
    await expect(field('Postal Code (optional)')).toHaveValue('73301');
  });

  await test.step("Save with nothing changed: 'There are no changes to submit.'", async () => {
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('There are no changes to submit.')).toBeVisible();
  });

  await test.step("a refused phone number is named under its field; 'Abandon Changes' leaves the tab", async () => {
    await field('Phone Number (optional)').fill('call me');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Unable to update your profile due to one or more errors.')).toBeVisible();
    await expect(page.getByText('Phone Number is invalid')).toBeVisible();
    await page.getByRole('tab', { name: 'Requests History' }).click();
    await page
      .getByRole('dialog', { name: 'Unsaved Changes' })
      .getByRole('button', { name: 'Abandon Changes' })
      .click();
    await expect(page).toHaveURL(/tab=history/);
  });

  await test.step('Requests History: the note, three tables newest first, no reviewer comments', async () => {
    await expect(
      page.getByText('These are requests and may not reflect the access User Support granted.'),
    ).toBeVisible();
    const accessTable = page.getByRole('table', { name: 'Access requests' });
    await expect(accessTable.getByRole('row')).toHaveCount(3);
    await expect(accessTable.getByRole('row').nth(1)).toContainText('second access ask');
    await expect(accessTable.getByRole('row').nth(2)).toContainText('first access ask');
    await expect(page.getByRole('table', { name: 'Profile change requests' })).toContainText('Hannah');
    const proxyTable = page.getByRole('table', { name: 'Registration-by-proxy requests' });
    await expect(proxyTable).toContainText(`Proxied Person${tag}`);
    await expect(proxyTable).toContainText('555-0199 ext. 7');
    await expect(page.getByText(/reviewer note/)).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Reviewer Comments' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Filter access requests' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Filter access requests' }).fill('second');
    await expect(accessTable.getByRole('row')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Filter access requests' }).fill('');
    await shot(page, '87-profile-history');
  });

  await signOut(page);
});

test("an administrator reads the user's Requests History with the reviewer comments", async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto(`/app/users/${userId}?tab=history`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit User Hana ${lastName}` })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Requests History', selected: true })).toBeVisible();
  const accessTable = page.getByRole('table', { name: 'Access requests' });
  await expect(accessTable.getByRole('row')).toHaveCount(3);
  await expect(accessTable).toContainText(`reviewer note 2 ${tag}`);
  await expect(page.getByRole('table', { name: 'Profile change requests' })).toContainText(
    `profile reviewer note ${tag}`,
  );
  await expect(page.getByRole('table', { name: 'Registration-by-proxy requests' })).toContainText('555-0199 ext. 7');
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  // The widest view (reviewer comments shown): no table scrolls sideways at 1280 px.
  for (const name of ['Access requests', 'Profile change requests', 'Registration-by-proxy requests']) {
    await expectNoSidewaysScroll(page.getByRole('table', { name }));
  }
  await shot(page, '88-user-detail-history');
  await signOut(page);
});
