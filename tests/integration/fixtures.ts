/**
 * Shared helpers of the integration tests: the environment the global setup provides, a Prisma client,
 * and a way to file a request row exactly as the API does before it starts the workflow.
 */
import { inject } from 'vitest';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createPrisma, type PrismaClient } from '@portal/db';
import type { AccessControl } from '@portal/contract';
import { type CaughtMail, readMail } from '@portal/scripts';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}

// In-process workers log their state changes at INFO; the test output keeps only warnings and errors.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // A runtime already exists in this test process (installed by an earlier import): keep it.
}

export const stackEnv = (): Record<string, string> => inject('stackEnv');

/** The worker's mail settings pointing at the test stack's SMTP catcher. */
export const testMailSettings = () => ({
  smtpUrl: stackEnv().SMTP_URL!,
  from: stackEnv().MAIL_FROM!,
  portalUrl: 'http://127.0.0.1:8080',
  linkKey: stackEnv().MAIL_LINK_KEY!,
});

/** Waits (up to `timeoutMs`) for a caught mail to `to` whose subject contains `subjectPart`. */
export async function waitForMail(to: string, subjectPart: string, timeoutMs = 15_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = await readMail(stackEnv().MAIL_API_URL!);
    const hit = mails.find((m) => m.to.some((t) => t.address === to) && m.subject.includes(subjectPart));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} with '${subjectPart}' within ${timeoutMs} ms`);
}

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

/** Grants `block` to the user: an access record with the block's sites, LAOs, studies and systems, by 'test'. */
export function grantBlock(prisma: PrismaClient, portalUserId: number, block: AccessControl) {
  return prisma.userAccess.create({
    data: {
      portalUserId,
      roleName: block.roleName,
      siteCodes: block.siteCodes,
      laoIds: block.laoIds,
      studyNames: block.studyNames,
      systemAccessIds: block.systemAccessIds,
      createdBy: 'test',
      lastModifiedBy: 'test',
    },
  });
}

/** The ids of the systems configured for study role `roleName`. */
export const systemsOfRole = async (prisma: PrismaClient, roleName: string): Promise<number[]> =>
  (await prisma.studyRoleSystem.findMany({ where: { studyRole: { roleName } } })).map((s) => s.systemId);

/**
 * A role block of `roleName` as the Access tab sends it: the role's systems and the first study (none for
 * 'Safety Reviewer', which takes no study), with `extra` fields over it.
 */
export async function roleBlockOf(prisma: PrismaClient, roleName: string, extra: Record<string, unknown> = {}) {
  const study = await prisma.study.findFirstOrThrow({ orderBy: { study: 'asc' } });
  return {
    roleName,
    siteCodes: [],
    laoIds: [],
    studyNames: roleName === 'Safety Reviewer' ? [] : [study.study],
    systemAccessIds: await systemsOfRole(prisma, roleName),
    ...extra,
  };
}
