/**
 * The demo 'Laboratory Information System (demo)' (issue 41 "A real target to try it with"): a system whose
 * accounts are provisioned over SCIM 2.0 to the stack's scim2-server (scripts/src/demo-lis.ts). Runs on every
 * start, also on an already seeded database:
 * - the system is created once, requestable through the study roles 'Biospecimen Coordinator' and 'Clinical
 *   Research Associate' (StudyRoleSystem); an existing system (and whatever an administrator changed about it
 *   or its roles since) is left as it is. The generated users and personas do not hold it: their access was
 *   seeded before it existed, so reconciliation starts from a small, explainable truth.
 * - with the target's URL and token (DEMO_SCIM_URL, DEMO_SCIM_TOKEN; only when the stack runs the apps) and
 *   PROVISIONING_KEY, its provisioning connection is written: created enabled with the study access as the
 *   portal's User extension; later starts write only the URL and the token sealed again (the target's port
 *   and the data folder's token may change), keeping what an administrator set (on/off, deletion, retries).
 * - the target keeps its accounts in memory, so it starts empty: every person who holds the system or was
 *   provisioned to it gets a provisioning notice (noteProvisioning), and the worker creates their accounts
 *   again once it runs.
 */
import { z } from 'zod';
import type { PrismaClient } from '../src';
import { noteProvisioningForSystem, PROVISIONING_SEAL_PURPOSE } from '../src/provisioning';
import { sealText } from '../src/sealed';

/** The demo system's name (SystemAccess.systemName). */
export const DEMO_LIS_NAME = 'Laboratory Information System (demo)';

/** The study roles that offer the demo system when it is created. */
export const DEMO_LIS_ROLES = ['Biospecimen Coordinator', 'Clinical Research Associate'];

/** The demo target's variables (scripts/src/demo-lis.ts demoLisEnv) and the key its token is sealed with. */
export const DemoLisEnvSchema = z.object({
  DEMO_SCIM_URL: z.url().optional(),
  DEMO_SCIM_TOKEN: z.string().min(16).optional(),
  PROVISIONING_KEY: z.string().min(32).optional(),
});

/** What registerDemoLis did. */
export interface DemoLisRegistered {
  systemAccessId: number;
  /** The system was created by this call. */
  created: boolean;
  /** The connection was written (the target's URL, token and key were given). */
  connected: boolean;
  /** How many people were noted for provisioning to the (empty) target. */
  noted: number;
}

/**
 * Registers the demo system and, with `target`, its provisioning connection (see the module's comment).
 * @throws when PostgreSQL fails (nothing of a failed step is kept: each runs in one transaction).
 */
export async function registerDemoLis(
  prisma: PrismaClient,
  target: { url: string; token: string; key: string } | null,
  log: (line: string) => void = () => {},
): Promise<DemoLisRegistered> {
  const { id: systemAccessId, created } = await prisma.$transaction(async (tx) => {
    const existing = await tx.systemAccess.findFirst({ where: { systemName: DEMO_LIS_NAME }, orderBy: { id: 'asc' } });
    if (existing) return { id: existing.id, created: false };
    const last = await tx.systemAccess.aggregate({ _max: { sort: true } });
    const roles = await tx.studyRole.findMany({ where: { roleName: { in: DEMO_LIS_ROLES } } });
    const system = await tx.systemAccess.create({
      data: {
        systemName: DEMO_LIS_NAME,
        description: 'Laboratory orders, results and specimens; accounts provisioned over SCIM 2.0.',
        sort: (last._max.sort ?? 0) + 1,
        studyRoles: { create: roles.map((r) => ({ studyRoleId: r.id })) },
      },
    });
    return { id: system.id, created: true };
  });
  if (created) log(`'${DEMO_LIS_NAME}' created, offered by ${DEMO_LIS_ROLES.join(' and ')}`);
  if (!target) return { systemAccessId, created, connected: false, noted: 0 };

  const baseUrl = target.url.replace(/\/+$/, '');
  const tokenSealed = sealText(target.key, PROVISIONING_SEAL_PURPOSE, target.token);
  const noted = await prisma.$transaction(async (tx) => {
    await tx.provisioningConnection.upsert({
      where: { systemAccessId },
      create: { systemAccessId, baseUrl, tokenSealed, enabled: true, accessAs: 'EXTENSION' },
      update: { baseUrl, tokenSealed },
    });
    // Everyone the (empty) target should hold or once held: the worker converges each, creating or deactivating.
    return noteProvisioningForSystem(tx, systemAccessId);
  });
  const who = noted === 1 ? '1 person' : `${noted} people`;
  log(`'${DEMO_LIS_NAME}' provisions to ${baseUrl}${noted ? ` (${who} noted for the empty target)` : ''}`);
  return { systemAccessId, created, connected: true, noted };
}
