/**
 * Rule 1 for provisioning notices (issue 41): every change to what a system should hold writes a
 * `ProvisioningNotice` in its transaction (prisma/src/provisioning.ts); the worker's listener signal-with-starts
 * `provision-<system>-<subject>` on the commit's notification, and the reconciler does the same for any notice
 * still unstarted. The notices of one (system, person) are marked together after one signal: many changes to
 * one person collapse into one run, which reads the latest state. Safe from several workers at once (a
 * signal-with-start is idempotent but for one more round; the mark is idempotent).
 */
import type { Client } from '@temporalio/client';
import { PROVISIONING_CHANNEL, type PrismaClient } from '@portal/db';
import { signalProvisioning } from '@portal/workflows';
import { listenForNotices } from './notice-listener';

/** What starting provisioning needs, and the runs' timing (PROVISIONING_ATTEMPT_TIMEOUT, ..._MAX_RETRY_INTERVAL). */
export interface ProvisioningStarter {
  prisma: PrismaClient;
  client: Client;
  taskQueue: string;
  attemptTimeout?: string;
  maxRetryInterval?: string;
}

/** How many notices one pass takes. */
const PASS_SIZE = 200;

/**
 * Signals the workflow of every unstarted notice (up to PASS_SIZE, oldest first) and marks them.
 * @returns how many (system, person) pairs were signalled. @throws when Temporal or PostgreSQL fails (the
 * notices stay unstarted for the next pass).
 */
export async function startProvisioningNotices(opts: ProvisioningStarter, stopped = () => false): Promise<number> {
  const notices = await opts.prisma.provisioningNotice.findMany({
    where: { workflowStartedAt: null },
    orderBy: { id: 'asc' },
    take: PASS_SIZE,
  });
  const pairs = new Map<string, { systemAccessId: number; portalUserId: number; ids: number[] }>();
  for (const n of notices) {
    const key = `${n.systemAccessId}:${n.portalUserId}`;
    const pair = pairs.get(key) ?? { systemAccessId: n.systemAccessId, portalUserId: n.portalUserId, ids: [] };
    pair.ids.push(n.id);
    pairs.set(key, pair);
  }
  let signalled = 0;
  for (const pair of pairs.values()) {
    if (stopped()) break;
    const [user, conn] = await Promise.all([
      opts.prisma.portalUser.findUnique({ where: { id: pair.portalUserId }, select: { subjectId: true } }),
      opts.prisma.provisioningConnection.findUnique({ where: { systemAccessId: pair.systemAccessId } }),
    ]);
    // A person or connection gone since: nothing to converge.
    if (user && conn) {
      await signalProvisioning(opts.client, opts.taskQueue, {
        systemAccessId: pair.systemAccessId,
        portalUserId: pair.portalUserId,
        subjectId: user.subjectId,
        deadline: `${conn.retryDays} days`,
        attemptTimeout: opts.attemptTimeout,
        maxRetryInterval: opts.maxRetryInterval,
      });
      signalled++;
    }
    await opts.prisma.provisioningNotice.updateMany({
      where: { id: { in: pair.ids } },
      data: { workflowStartedAt: new Date() },
    });
  }
  return signalled;
}

/** Listens for provisioning notices until the returned stop function is called (notice-listener.ts). */
export function listenForProvisioningNotices(
  opts: ProvisioningStarter & { connectionString: string; retryMs?: number; log?: (message: string) => void },
): () => Promise<void> {
  return listenForNotices({
    connectionString: opts.connectionString,
    channel: PROVISIONING_CHANNEL,
    name: 'provisioning listener',
    retryMs: opts.retryMs,
    log: opts.log,
    pass: async (stopped) => {
      // Until a pass finds nothing: a burst of changes may leave more than one pass's worth.
      while (!stopped() && (await startProvisioningNotices(opts, stopped)) > 0);
    },
  });
}
