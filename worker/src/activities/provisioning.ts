/**
 * The activities of `provision-<system>-<subject>` (issue 41, workflows/src/provisioning/types.ts): converge one
 * person's account at one system on what PostgreSQL says it should hold. The account is looked up by
 * `externalId` (the portal's subject id) before anything is created, so a retry after a lost reply finds the
 * account the lost reply made instead of making a second one. The bearer token is opened here from its sealed
 * column (PROVISIONING_KEY) and never leaves the activity: not in workflow input, history, logs or errors.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ProvisioningAccessAs } from '@portal/contract';
import {
  PROVISIONING_SEAL_PURPOSE,
  type PrismaClient,
  type ProvisioningConnection,
  type WantedAccount,
  openText,
  wantedAccount,
} from '@portal/db';
import { ScimClient, ScimError, type ScimResource, driftOf, patchOperations, userResource } from '@portal/scim';
import type { ProvisionActivities, ProvisionOutcome } from '@portal/workflows';

/** The worker's provisioning settings: PROVISIONING_KEY (unset: every convergence fails and is retried). */
export interface ProvisioningSettings {
  key?: string;
}

/** The longest a single SCIM call may take, in ms: below the attempt's own limit, so the error is ours. */
const CALL_LIMIT_MS = 30_000;

/** A SCIM client for `conn` whose calls end before the current attempt's deadline. */
export function scimClientFor(conn: ProvisioningConnection, settings: ProvisioningSettings): ScimClient {
  if (!settings.key)
    throw ApplicationFailure.retryable('PROVISIONING_KEY is not set: the bearer token cannot be opened');
  const attemptMs = Context.current().info.startToCloseTimeoutMs;
  return new ScimClient({
    baseUrl: conn.baseUrl,
    token: conn.tokenSealed ? openText(settings.key, PROVISIONING_SEAL_PURPOSE, conn.tokenSealed) : null,
    timeoutMs: Math.max(500, Math.min(CALL_LIMIT_MS, attemptMs - 250)),
  });
}

/** Rethrows a retryable target failure for Temporal, with the target's Retry-After as the next delay. */
function retryLater(err: ScimError): never {
  throw ApplicationFailure.create({
    message: err.message,
    type: 'ScimError',
    nextRetryDelay: err.retryAfterMs ?? undefined,
  });
}

/** Whether the target supports PATCH: read once from its /ServiceProviderConfig and kept on the connection. */
async function patchSupported(prisma: PrismaClient, conn: ProvisioningConnection, scim: ScimClient): Promise<boolean> {
  if (conn.patchSupported !== null) return conn.patchSupported;
  const supported = (await scim.serviceProviderConfig()).patch?.supported === true;
  await prisma.provisioningConnection.update({
    where: { systemAccessId: conn.systemAccessId },
    data: { patchSupported: supported },
  });
  return supported;
}

type Write = { outcome: ProvisionOutcome; targetId: string | null; active: boolean | null };

/** Creates, updates, deactivates or deletes the target's account so it matches `wanted`. */
async function converge(
  prisma: PrismaClient,
  conn: ProvisioningConnection,
  scim: ScimClient,
  wanted: WantedAccount,
): Promise<Write> {
  const accessAs = conn.accessAs as ProvisioningAccessAs;
  const held = await scim.findByExternalId(wanted.subjectId);
  if (!held) {
    if (!wanted.active) return { outcome: 'NOTHING_TO_DO', targetId: null, active: null };
    try {
      const created = await scim.create(userResource(wanted, accessAs));
      return { outcome: 'CREATED', targetId: created.id, active: true };
    } catch (err) {
      // A conflict is the account a lost reply made (found on the next attempt) or another account's userName.
      if (!(err instanceof ScimError && err.status === 409)) throw err;
      const made = await scim.findByExternalId(wanted.subjectId);
      if (!made) throw err;
      return update(prisma, conn, scim, wanted, made);
    }
  }
  if (!wanted.active && conn.deleteOnRemoval) {
    await scim.delete(held.id);
    return { outcome: 'DELETED', targetId: null, active: null };
  }
  return update(prisma, conn, scim, wanted, held);
}

async function update(
  prisma: PrismaClient,
  conn: ProvisioningConnection,
  scim: ScimClient,
  wanted: WantedAccount,
  held: ScimResource,
): Promise<Write> {
  const accessAs = conn.accessAs as ProvisioningAccessAs;
  const done = { targetId: held.id, active: wanted.active };
  if (!driftOf(wanted, held, accessAs).length) return { outcome: 'UNCHANGED', ...done };
  if (await patchSupported(prisma, conn, scim)) await scim.patch(held.id, patchOperations(wanted, accessAs));
  else await scim.replace(held.id, userResource(wanted, accessAs));
  return { outcome: wanted.active ? 'UPDATED' : 'DEACTIVATED', ...done };
}

/**
 * Stores the account's state, unless a change noted after `readAt` (the notice marked it PENDING again): the
 * run converges once more for it and records that round instead.
 */
async function recordState(
  prisma: PrismaClient,
  key: { systemAccessId: number; portalUserId: number },
  readAt: Date,
  state: { state: 'IN_SYNC' | 'ERROR'; targetId?: string | null; active?: boolean | null; lastError: string | null },
): Promise<void> {
  const data = {
    state: state.state,
    lastError: state.lastError?.slice(0, 1024) ?? null,
    ...(state.targetId !== undefined ? { targetId: state.targetId } : {}),
    ...(state.active !== undefined ? { active: state.active } : {}),
    ...(state.state === 'IN_SYNC' ? { syncedAt: new Date() } : {}),
  };
  const updated = await prisma.provisioningAccount.updateMany({
    where: { ...key, changedAt: { lte: readAt } },
    data,
  });
  if (updated.count) return;
  // No row yet (a re-sync of a person never noted): make it; a newer row stays as it is.
  await prisma.provisioningAccount.createMany({ data: [{ ...key, ...data, changedAt: readAt }], skipDuplicates: true });
}

export function createProvisioningActivities(
  prisma: PrismaClient,
  settings: ProvisioningSettings,
): ProvisionActivities {
  return {
    async convergeAccount(key) {
      const readAt = new Date();
      const conn = await prisma.provisioningConnection.findUnique({ where: { systemAccessId: key.systemAccessId } });
      if (!conn?.enabled) return 'DISABLED';
      const wanted = await wantedAccount(prisma, key.systemAccessId, key.portalUserId);
      if (!wanted) return 'NOTHING_TO_DO';
      const scim = scimClientFor(conn, settings);
      try {
        const write = await converge(prisma, conn, scim, wanted);
        await recordState(prisma, key, readAt, {
          state: 'IN_SYNC',
          targetId: write.targetId,
          active: write.active,
          lastError: null,
        });
        return write.outcome;
      } catch (err) {
        if (!(err instanceof ScimError)) throw err;
        if (err.retryable) retryLater(err);
        // Refused for good (a 4xx other than 408/429): shown as the person's provisioning error.
        await recordState(prisma, key, readAt, { state: 'ERROR', lastError: err.message });
        return 'REFUSED';
      }
    },

    async recordProvisioningFailure({ message, ...key }) {
      await recordState(prisma, key, new Date(), {
        state: 'ERROR',
        lastError: `Gave up retrying: ${message}`,
      });
    },
  };
}
