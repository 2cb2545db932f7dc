/**
 * Users made for one browser journey (own requests, the report): a 'Network User' with a directory entry and
 * a password, optionally holding access records, on the journey stack's database and directory
 * (E2E_PORTAL_ENV from the global setup). Each run's names carry a random tag, so reruns never collide.
 */
import crypto from 'node:crypto';
import { createPrisma, type PrismaClient } from '@portal/db';
import { DirectoryConfigSchema, addPerson } from '@portal/directory';

export const journeyEnv = () => JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;

export const journeyPrisma = (): PrismaClient => createPrisma(journeyEnv().DATABASE_URL!);

export interface JourneyUser {
  id: number;
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface HeldAccess {
  roleName: string;
  siteCodes?: string[];
  laoIds?: string[];
  studyNames?: string[];
}

/** Creates the user (its held access gets the role's default systems, as the seed does). */
export async function makeJourneyUser(
  prisma: PrismaClient,
  prefix: string,
  access: HeldAccess[] = [],
): Promise<JourneyUser> {
  const tag = crypto.randomBytes(3).toString('hex');
  const username = `${prefix}${tag}`.toLowerCase();
  const email = `${username}@e2e.portal.test`;
  const password = `Journey-${tag}-Pw9!`;
  const firstName = 'Jamie';
  const lastName = `${prefix[0]!.toUpperCase()}${prefix.slice(1)}${tag}`;
  const role = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
  const roles = await prisma.studyRole.findMany({ include: { systems: true } });
  const user = await prisma.portalUser.create({
    data: {
      username,
      firstName,
      lastName,
      email,
      portalRoles: { create: [{ portalRoleId: role.id }] },
      userAccesses: {
        create: access.map((a) => ({
          roleName: a.roleName,
          siteCodes: a.siteCodes ?? [],
          laoIds: a.laoIds ?? [],
          studyNames: a.studyNames ?? [],
          systemAccessIds: roles.find((r) => r.roleName === a.roleName)!.systems.map((s) => s.systemId),
          createdBy: 'journey',
          lastModifiedBy: 'journey',
        })),
      },
    },
  });
  const uuid = await addPerson(DirectoryConfigSchema.parse(journeyEnv()), {
    username,
    firstName,
    lastName,
    email,
    gecos: '',
    uidNumber: 80_000 + user.id,
    password,
  });
  await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
  return { id: user.id, username, email, password, firstName, lastName };
}
