/**
 * Users: one demo account per persona, each with a directory entry and a password, and generated users
 * with access records so lists look real (issue "Records and demo data").
 */
import type { Faker } from '@faker-js/faker';
import type { DirectoryConfig } from '@portal/directory';
import { addPerson, setPasswordChangedTime } from '@portal/directory';
import type { PrismaClient } from '../src';
import type { Network } from './network';
import { STUDY_ROLES } from './reference';

export interface DemoAccount {
  persona: string;
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  email: string;
  portalRoles: string[];
  access: Array<{ roleName: string; siteCodes?: string[]; laoIds?: string[]; studies?: number }>;
  /**
   * Age of the password at seeding, in days (000 §4 Password expiry with the directory's 90-day pwdMaxAge
   * and 14-day warning): 80 signs in with WARN_CHANGE, 95 with FORCE_CHANGE (grace sign-ins). Default 0.
   */
  passwordAgeDays?: number;
}

/** The demo accounts printed at start-up (passwords are demo data, not secrets). */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    persona: 'Administrator (ADMIN)',
    username: 'admin',
    password: 'Admin-Demo-2026!',
    firstName: 'Avery',
    lastName: 'Administrator',
    email: 'admin@portal.test',
    portalRoles: ['Administrator'],
    access: [],
  },
  {
    persona: 'Reviewer (WRITE_USERS)',
    username: 'reviewer',
    password: 'Reviewer-Demo-2026!',
    firstName: 'Riley',
    lastName: 'Reviewer',
    email: 'reviewer@portal.test',
    portalRoles: ['User Support'],
    access: [],
  },
  {
    persona: 'Read-only staff (READ_USERS)',
    username: 'readonly',
    password: 'Readonly-Demo-2026!',
    firstName: 'Robin',
    lastName: 'Reader',
    email: 'readonly@portal.test',
    portalRoles: ['User Support Read-Only'],
    access: [],
  },
  {
    persona: 'Network user (USER)',
    username: 'user',
    password: 'User-Demo-2026!',
    firstName: 'Jordan',
    lastName: 'Researcher',
    email: 'user@portal.test',
    portalRoles: ['Network User'],
    access: [{ roleName: 'Clinical Research Associate', siteCodes: ['MA036'], studies: 2 }],
  },
  {
    persona: 'LAO staff with the proxy right',
    username: 'laostaff',
    password: 'Laostaff-Demo-2026!',
    firstName: 'Morgan',
    lastName: 'Liaison',
    email: 'laostaff@portal.test',
    portalRoles: ['Network User', 'Proxy Access-Change Request User'],
    access: [{ roleName: 'LAO Staff', laoIds: ['MA036'] }],
  },
  {
    persona: 'Network user whose password has expired',
    username: 'expired',
    password: 'Lapsed-Demo-2026!',
    firstName: 'Casey',
    lastName: 'Lapsed',
    email: 'expired@portal.test',
    portalRoles: ['Network User'],
    access: [],
    passwordAgeDays: 95,
  },
  {
    persona: 'Network user whose password expires soon',
    username: 'expiring',
    password: 'Soon-Demo-2026!',
    firstName: 'Quinn',
    lastName: 'Soon',
    email: 'expiring@portal.test',
    portalRoles: ['Network User'],
    access: [],
    passwordAgeDays: 80,
  },
  {
    persona: 'Network user who forgot the password',
    username: 'forgetful',
    password: 'Forgetful-Demo-2026!',
    firstName: 'Sam',
    lastName: 'Forgetful',
    email: 'forgetful@portal.test',
    portalRoles: ['Network User'],
    access: [],
  },
];

async function systemsOf(prisma: PrismaClient): Promise<Map<string, number[]>> {
  const roles = await prisma.studyRole.findMany({ include: { systems: true } });
  return new Map(roles.map((r) => [r.roleName, r.systems.map((s) => s.systemId).sort((a, b) => a - b)]));
}

export async function seedDemoAccounts(prisma: PrismaClient, dir: DirectoryConfig, network: Network): Promise<void> {
  const roles = await prisma.portalRole.findMany();
  const systems = await systemsOf(prisma);
  for (const a of DEMO_ACCOUNTS) {
    const user = await prisma.portalUser.create({
      data: {
        username: a.username,
        firstName: a.firstName,
        lastName: a.lastName,
        email: a.email,
        gecos: `${a.firstName} ${a.lastName}`,
        accountType: a.portalRoles.some((r) => r !== 'Network User' && r !== 'Proxy Access-Change Request User')
          ? 'internal'
          : 'external',
        organizationName: 'Portal Gateway Demo',
        jobTitle: a.persona.slice(0, 45),
        phoneNumber: '6175550100',
        country: 'US',
        state: 'MA',
        city: 'Boston',
        portalRoles: {
          create: a.portalRoles.map((name) => ({ portalRoleId: roles.find((r) => r.description === name)!.id })),
        },
        userAccesses: {
          create: a.access.map((x) => ({
            roleName: x.roleName,
            siteCodes: x.siteCodes ?? [],
            laoIds: x.laoIds ?? [],
            studyNames: network.studies.slice(0, x.studies ?? 0),
            systemAccessIds: systems.get(x.roleName) ?? [],
            createdBy: 'seed',
            lastModifiedBy: 'seed',
          })),
        },
      },
    });
    const uuid = await addPerson(dir, { ...a, gecos: `${a.firstName} ${a.lastName}`, uidNumber: 10_000 + user.id });
    await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
    if (a.passwordAgeDays) {
      await setPasswordChangedTime(dir, a.username, new Date(Date.now() - a.passwordAgeDays * 86_400_000));
    }
  }
}

/** Generates `count` users (directory entries are not needed: they never sign in) with 1-2 access records. */
export async function seedGeneratedUsers(
  prisma: PrismaClient,
  faker: Faker,
  network: Network,
  count: number,
): Promise<void> {
  const networkUser = await prisma.portalRole.findUniqueOrThrow({ where: { description: 'Network User' } });
  const systems = await systemsOf(prisma);
  const roleChoices = STUDY_ROLES.filter((r) => r.roleName !== 'LAO Staff');
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const data = Array.from({ length: Math.min(batch, count - start) }, (_, k) => {
      const i = start + k;
      const firstName = faker.person.firstName().slice(0, 45);
      const lastName = faker.person.lastName().slice(0, 45);
      const site = faker.helpers.arrayElement(network.aoCodes);
      return {
        username: `${firstName[0]}${lastName}${i}`
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '')
          .slice(0, 64),
        firstName,
        lastName,
        email: `${firstName}.${lastName}.${i}@example.org`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
        gecos: `${firstName} ${lastName}`.slice(0, 91),
        organizationName: site,
        jobTitle: faker.person.jobTitle().slice(0, 45),
        phoneNumber: faker.string.numeric(10),
        city: faker.location.city().slice(0, 255),
        country: 'US',
        state: faker.location.state({ abbreviated: true }),
        postalCode: faker.location.zipCode('#####'),
        inactive: faker.number.int({ min: 1, max: 10 }) === 1,
      };
    });
    const users = await prisma.portalUser.createManyAndReturn({ data, select: { id: true, organizationName: true } });
    await prisma.portalUserRole.createMany({
      data: users.map((u) => ({ portalUserId: u.id, portalRoleId: networkUser.id })),
    });
    await prisma.userAccess.createMany({
      data: users.flatMap((u) =>
        faker.helpers.arrayElements(roleChoices, { min: 1, max: 2 }).map((role) => ({
          portalUserId: u.id,
          roleName: role.roleName,
          siteCodes: role.allowAOs ? [u.organizationName] : [],
          laoIds: !role.allowAOs && role.allowLAOs ? [network.laoOf.get(u.organizationName)!] : [],
          studyNames: role.studyRequired ? faker.helpers.arrayElements(network.studies, { min: 1, max: 3 }) : [],
          systemAccessIds: systems.get(role.roleName) ?? [],
          createdBy: 'seed',
          lastModifiedBy: 'seed',
        })),
      ),
    });
  }
}
