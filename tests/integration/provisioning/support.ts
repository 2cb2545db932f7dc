/**
 * What the provisioning tests share (issue 41): a study system of their own with a provisioning connection to a
 * real SCIM target (tests/support/scim-target.ts), the key its token is sealed under, and reading a person's
 * account at the target by externalId.
 */
import crypto from 'node:crypto';
import { PROVISIONING_SEAL_PURPOSE, type PrismaClient, sealText } from '@portal/db';
import type { ScimTarget } from '../../support/scim-target';

/** The PROVISIONING_KEY of the tests' API and worker. */
export const PROVISIONING_KEY = 'provisioning-test-key-0123456789abcdef';

/**
 * Makes a system named `name` (unique per call) with a connection to `baseUrl` holding `token`, on.
 * @returns the system's id.
 */
export async function provisionedSystem(
  prisma: PrismaClient,
  opts: { baseUrl: string; token: string; accessAs?: 'EXTENSION' | 'NONE'; deleteOnRemoval?: boolean; tag: string },
): Promise<number> {
  const system = await prisma.systemAccess.create({
    data: { systemName: `Provisioned ${opts.tag} ${crypto.randomBytes(3).toString('hex')}`, sort: 900 },
  });
  await prisma.provisioningConnection.create({
    data: {
      systemAccessId: system.id,
      baseUrl: opts.baseUrl,
      tokenSealed: sealText(PROVISIONING_KEY, PROVISIONING_SEAL_PURPOSE, opts.token),
      enabled: true,
      accessAs: opts.accessAs ?? 'EXTENSION',
      deleteOnRemoval: opts.deleteOnRemoval ?? false,
      retryDays: 1,
    },
  });
  return system.id;
}

/** The target's accounts whose externalId is `subjectId`. */
export async function accountsOf(target: ScimTarget, subjectId: string) {
  return (await target.users()).filter((u) => u.externalId === subjectId);
}

/** The one account of `subjectId` at the target, or undefined. @throws when it holds several. */
export async function accountOf(target: ScimTarget, subjectId: string) {
  const found = await accountsOf(target, subjectId);
  if (found.length > 1) throw new Error(`${found.length} accounts have externalId ${subjectId}`);
  return found[0];
}

/** The primary email of a SCIM user as the target holds it. */
export const emailOf = (user: Record<string, unknown> | undefined): string | undefined =>
  (user?.emails as Array<{ value: string }> | undefined)?.[0]?.value;
