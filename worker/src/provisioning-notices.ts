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

/** How many notices one pass takes, and how many signals it has in flight at once. */
const PASS_SIZE = 500;
const SIGNALS_IN_FLIGHT = 16;

/** Runs `work` on each of `items`, at most `limit` at once. @returns the items whose work failed, with why. */
async function eachAtMost<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  const failed: Array<{ item: T; err: unknown }> = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch((err: unknown) => void failed.push({ item, err }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failed;
}

/**
 * Signals the workflow of every unstarted notice (up to PASS_SIZE, oldest first) and marks them: the people and
 * connections read in one query each, the signals SIGNALS_IN_FLIGHT at a time, the marks in one statement.
 * @returns how many notices were started (or found moot). @throws the first failure after marking the others
 * (the failed notices stay unstarted for the next pass).
 */
export async function startProvisioningNotices(opts: ProvisioningStarter, stopped = () => false): Promise<number> {
  const notices = await opts.prisma.provisioningNotice.findMany({
    where: { workflowStartedAt: null },
    orderBy: { id: 'asc' },
    take: PASS_SIZE,
  });
  if (!notices.length) return 0;
  const pairs = new Map<string, { systemAccessId: number; portalUserId: number; ids: number[] }>();
  for (const n of notices) {
    const key = `${n.systemAccessId}:${n.portalUserId}`;
    const pair = pairs.get(key) ?? { systemAccessId: n.systemAccessId, portalUserId: n.portalUserId, ids: [] };
    pair.ids.push(n.id);
    pairs.set(key, pair);
  }
  const [users, conns] = await Promise.all([
    opts.prisma.portalUser.findMany({
      where: { id: { in: [...new Set(notices.map((n) => n.portalUserId))] } },
      select: { id: true, subjectId: true },
    }),
    opts.prisma.provisioningConnection.findMany({
      where: { systemAccessId: { in: [...new Set(notices.map((n) => n.systemAccessId))] } },
      select: { systemAccessId: true, retryDays: true },
    }),
  ]);
  const subjectOf = new Map(users.map((u) => [u.id, u.subjectId]));
  const retryDaysOf = new Map(conns.map((c) => [c.systemAccessId, c.retryDays]));
  const done: number[] = [];
  const failed = await eachAtMost([...pairs.values()], SIGNALS_IN_FLIGHT, async (pair) => {
    if (stopped()) throw new Error('the listener is stopping');
    const subjectId = subjectOf.get(pair.portalUserId);
    const retryDays = retryDaysOf.get(pair.systemAccessId);
    // A person or connection gone since: nothing to converge.
    if (subjectId !== undefined && retryDays !== undefined) {
      await signalProvisioning(opts.client, opts.taskQueue, {
        systemAccessId: pair.systemAccessId,
        portalUserId: pair.portalUserId,
        subjectId,
        deadline: `${retryDays} days`,
        attemptTimeout: opts.attemptTimeout,
        maxRetryInterval: opts.maxRetryInterval,
      });
    }
    done.push(...pair.ids);
  });
  if (done.length) {
    await opts.prisma.provisioningNotice.updateMany({
      where: { id: { in: done } },
      data: { workflowStartedAt: new Date() },
    });
  }
  if (failed.length && !stopped()) throw failed[0]!.err;
  return done.length;
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
