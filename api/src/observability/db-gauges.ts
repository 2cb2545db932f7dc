/**
 * The gauges read from PostgreSQL when /metrics is scraped (issue 24): unresolved requests by kind and
 * status, the mail outbox's backlog and oldest age, and the reconciler's backlog and lag (rows whose workflow
 * start is unconfirmed). One round trip of index-backed statements (the open statuses of the status indexes,
 * the `workflowStartedAt` indexes, the outbox's partial index), bounded by a statement timeout and a deadline,
 * and shared by scrapes that overlap, so a slow database never stacks scrapes up.
 */
import { Prisma, type PrismaClient } from '@portal/db';
import type { ApiMetrics } from './registry';

interface GaugeRow {
  metric: 'open' | 'outbox' | 'unstarted';
  kind: string;
  status: string;
  n: number;
  oldest_age: number | null;
}

/** The statuses a request may still leave (REQUEST-LIFECYCLE); the SQL lists them literally so the status indexes serve it. */
const OPEN_STATUSES = ['NEW', 'IN_PROGRESS', 'PENDING_REVIEW', 'PENDING_OUTSIDE_ACTION'];

/** The tables whose rows wait for a confirmed workflow start (`workflowStartedAt`), by kind, with their filing time. */
const UNSTARTED = [
  { kind: 'access_change', table: 'AccessModRequest', filed: 'sysdat' },
  { kind: 'profile_change', table: 'ProfileChangeRequest', filed: 'sysdat' },
  { kind: 'registration', table: 'Registration', filed: 'sysdat' },
  { kind: 'proxy_batch', table: 'ProxyBatch', filed: 'sysdat' },
  { kind: 'sso_logout', table: 'SsoLogoutNotice', filed: 'createdAt' },
] as const;

/** One kind's unstarted count and oldest age (names from the constant list above, never from input). */
const unstartedRow = ({ kind, table, filed }: (typeof UNSTARTED)[number]) =>
  Prisma.sql`SELECT 'unstarted', ${kind}::text, '', count(*)::int,
    extract(epoch FROM now() - min(${Prisma.raw(`"${filed}"`)}))::float8
    FROM ${Prisma.raw(`"${table}"`)} WHERE "workflowStartedAt" IS NULL`;

async function readGauges(prisma: PrismaClient, timeoutMs: number): Promise<GaugeRow[]> {
  const [, rows] = await prisma.$transaction([
    prisma.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`),
    prisma.$queryRaw<GaugeRow[]>`
      SELECT 'open' AS metric, 'access_change' AS kind, "requestStatus"::text AS status, count(*)::int AS n,
             NULL::float8 AS oldest_age
        FROM "AccessModRequest" WHERE "requestStatus" IN ('NEW', 'IN_PROGRESS', 'PENDING_REVIEW', 'PENDING_OUTSIDE_ACTION')
       GROUP BY "requestStatus"
      UNION ALL
      SELECT 'open', 'profile_change', "requestStatus"::text, count(*)::int, NULL
        FROM "ProfileChangeRequest" WHERE "requestStatus" IN ('NEW', 'IN_PROGRESS', 'PENDING_REVIEW', 'PENDING_OUTSIDE_ACTION')
       GROUP BY "requestStatus"
      UNION ALL
      SELECT 'open', 'registration', 'PENDING', count(*)::int, NULL
        FROM "Registration" WHERE "registrationStatus" = 'PENDING'
      UNION ALL
      SELECT 'open', 'proxy_batch', 'RUNNING', count(*)::int, NULL FROM "ProxyBatch" WHERE status = 'RUNNING'
      UNION ALL
      SELECT 'outbox', '', '', count(*)::int, extract(epoch FROM now() - min("createdAt"))::float8
        FROM "OutboundMail" WHERE status = 'SENDING'
      UNION ALL ${Prisma.join(UNSTARTED.map(unstartedRow), ' UNION ALL ')}`,
  ]);
  return rows;
}

/** Writes one read into the gauges; a kind/status not in it (nothing open) goes back to 0. */
function apply(metrics: ApiMetrics, rows: GaugeRow[]): void {
  metrics.openRequests.reset();
  for (const kind of ['access_change', 'profile_change']) {
    for (const status of OPEN_STATUSES) metrics.openRequests.set({ kind, status }, 0);
  }
  for (const row of rows) {
    const age = Math.max(0, row.oldest_age ?? 0);
    if (row.metric === 'open') metrics.openRequests.set({ kind: row.kind, status: row.status }, row.n);
    else if (row.metric === 'outbox') {
      metrics.outboxBacklog.set(row.n);
      metrics.outboxOldestAge.set(age);
    } else {
      metrics.reconcilerBacklog.set({ kind: row.kind }, row.n);
      metrics.reconcilerLag.set({ kind: row.kind }, age);
    }
  }
}

/**
 * @returns a function that refreshes the gauges within `timeoutMs`; concurrent calls share one read. A failed
 * or late read counts `portal_metrics_scrape_errors_total{source="postgres"}` and leaves the last values.
 */
export function dbGaugeRefresher(prisma: PrismaClient, metrics: ApiMetrics, timeoutMs: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  const refresh = async () => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('deadline')), timeoutMs + 250);
    });
    try {
      apply(metrics, await Promise.race([readGauges(prisma, timeoutMs), deadline]));
    } catch {
      metrics.scrapeErrors.inc({ source: 'postgres' });
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    running ??= refresh().finally(() => (running = undefined));
    return running;
  };
}
