/**
 * Helpers of the profile-change journeys: a throw-away 'Network User' with a directory entry and a password (so
 * that changing their name never touches a demo persona other journeys look for), and signing in as them.
 */
import crypto from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { createPrisma } from '@portal/db';
import { DirectoryConfigSchema, addPerson } from '@portal/directory';
import { signInWith } from './support';

export interface ChangingUser {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

const portalEnv = () => JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;

/** Creates the user in PostgreSQL and the directory (external account, 'Network User'). */
export async function makeChangingUser(prefix: string): Promise<ChangingUser> {
  const tag = crypto.randomBytes(3).toString('hex');
  const username = `${prefix}${tag}`;
  const person = { username, firstName: 'Pat', lastName: `Before${tag}`, email: `${username}@e2e.portal.test` };
  const password = `Change-${tag}-Pw9!x`;
  const prisma = createPrisma(portalEnv().DATABASE_URL!);
  try {
    const role = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
    const user = await prisma.portalUser.create({
      data: { ...person, organizationName: 'Lakeside Clinic', portalRoles: { create: [{ portalRoleId: role.id }] } },
    });
    const uuid = await addPerson(DirectoryConfigSchema.parse(portalEnv()), {
      ...person,
      gecos: '',
      uidNumber: 80_000 + user.id,
      password,
    });
    await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
    return { id: user.id, ...person, password };
  } finally {
    await prisma.$disconnect();
  }
}

/** Signs in as `user` through the sign-in page and waits for the dashboard. */
export async function signInAs(page: Page, user: { username: string; password: string }): Promise<void> {
  await signInWith(page, user);
}

/**
 * On the Profile's Account tab: asks for `lastName` (with a comment) and waits for the filed request.
 * @returns the new request's id.
 */
export async function requestLastName(page: Page, lastName: string): Promise<number> {
  await page.getByRole('textbox', { name: /^Last Name/ }).fill(lastName);
  await page.getByRole('textbox', { name: /^Comments/ }).fill('My name changed.');
  const filed = page.waitForResponse(
    (r) => r.url().endsWith('/rest/secure/ldap_user_profile_mod_request') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Submit Request' }).click();
  const response = await filed;
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: number }).id;
}
