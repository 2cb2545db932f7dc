/**
 * Shared helpers of the integration tests: the environment the global setup provides, a Prisma client,
 * and a way to file a request row exactly as the API does before it starts the workflow.
 */
import { inject } from 'vitest';
import { createPrisma, type PrismaClient } from '@portal/db';
import type { AccessControl } from '@portal/contract';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}

export const stackEnv = (): Record<string, string> => inject('stackEnv');

export function testPrisma(): PrismaClient {
  return createPrisma(stackEnv().DATABASE_URL!);
}

/** The demo user's id and a valid role block for a NEW request (seeded reference data). */
export async function demoRequestParts(prisma: PrismaClient, username = 'user') {
  const user = await prisma.portalUser.findUniqueOrThrow({ where: { username } });
  const role = await prisma.studyRole.findUniqueOrThrow({
    where: { roleName: 'Data Manager' },
    include: { systems: true },
  });
  const study = await prisma.study.findFirstOrThrow({ orderBy: { study: 'asc' } });
  const block: AccessControl = {
    questionNum: 1,
    roleName: role.roleName,
    siteCodes: [],
    laoIds: [],
    studyNames: [study.study],
    systemAccessIds: role.systems.map((s) => s.systemId),
  };
  return { user, block };
}
