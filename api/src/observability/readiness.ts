/**
 * The checks behind /readyz (issue 24): PostgreSQL answers, Temporal answers, the directory (LDAP) answers,
 * and a worker polls the API's task queue (DescribeTaskQueue). They run side by side, each within
 * READY_CHECK_TIMEOUT_MS, so a frozen dependency fails its own check by name instead of hanging the probe.
 */
import { Client as LdapClient } from 'ldapts';
import type { Deps } from '../deps';

export const CHECKS = ['postgres', 'temporal', 'ldap', 'worker'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface Readiness {
  ready: boolean;
  /** 'ok' or what failed, per check. */
  checks: Record<CheckName, string>;
  /** The failed checks' names, in CHECKS order. */
  failed: CheckName[];
}

/** A poller seen longer ago than this has gone (a live worker re-polls at least every ~70 s). */
const POLLER_FRESH_MS = 120_000;

class CheckTimeout extends Error {}

/** `work` or a CheckTimeout after `ms`; the timer never outlives the answer. */
async function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const failure = (err: unknown): string =>
  `unreachable: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200)}`;

/** The directory's root DSE read anonymously (what any LDAP server answers), on a fresh connection. */
async function pingDirectory(url: string, ms: number): Promise<void> {
  const client = new LdapClient({ url, timeout: ms, connectTimeout: ms });
  try {
    await client.search('', { scope: 'base', attributes: ['namingContexts'] });
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Whether a worker polled the workflow task queue lately; throws when Temporal does not answer. */
async function queuePolled(deps: Deps, ms: number): Promise<boolean> {
  const { connection } = deps.temporal;
  const answer = await connection.withDeadline(Date.now() + ms, () =>
    connection.workflowService.describeTaskQueue({
      namespace: deps.cfg.TEMPORAL_NAMESPACE,
      taskQueue: { name: deps.cfg.TEMPORAL_TASK_QUEUE },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW: every worker of the portal polls it.
    }),
  );
  const fresh = Date.now() - POLLER_FRESH_MS;
  return (answer.pollers ?? []).some((p) => {
    const seen = p.lastAccessTime?.seconds;
    return seen === undefined || seen === null || Number(seen) * 1000 >= fresh;
  });
}

/** Runs every check. */
export async function checkReadiness(deps: Deps, timeoutMs: number): Promise<Readiness> {
  const run = (work: () => Promise<unknown>) =>
    within(timeoutMs, work).then(
      () => 'ok',
      (err: unknown) => failure(err),
    );
  const polled = within(timeoutMs, () => queuePolled(deps, timeoutMs));
  const [postgres, temporal, ldap, worker] = await Promise.all([
    run(() => deps.prisma.$queryRaw`SELECT 1`),
    run(() => polled),
    run(() => pingDirectory(deps.directory.LDAP_URL, timeoutMs)),
    polled.then(
      (yes) => (yes ? 'ok' : `no worker polls task queue ${deps.cfg.TEMPORAL_TASK_QUEUE}`),
      () => 'unknown: Temporal unreachable',
    ),
  ]);
  const checks: Record<CheckName, string> = { postgres, temporal, ldap, worker };
  const failed = CHECKS.filter((name) => checks[name] !== 'ok');
  return { ready: failed.length === 0, checks, failed };
}
