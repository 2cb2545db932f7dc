/**
 * A system's reconciliation reports (issue 41 "The result is a report per run (counts and the first 1,000
 * differences, CSV for all)"): the runs newest first, one page at a time, and one run's report with its first
 * PROVISIONING_LIMITS.reportDifferences differences in the order they were found (by id). The CSV is csv.ts.
 * A system without a connection still has its past reports (removal keeps them).
 */
import {
  CONFIG_MESSAGES,
  type Page,
  PROVISIONING_DIFFERENCE_KINDS,
  PROVISIONING_LIMITS,
  PROVISIONING_MESSAGES,
  type ProvisioningDifference,
  type ReconciliationReport,
  type ReconciliationSummary,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { notFound } from '../../http/errors';
import { pageWindow, toPage } from '../../http/page';
import { type ReconciliationRow, summaryView } from './views';

/** System `id`'s run `runId`. @throws 404 unknown system, 404 no such run of that system. */
export async function reconciliationOf(
  prisma: PrismaClient,
  systemId: number,
  runId: number,
): Promise<ReconciliationRow> {
  const run = await prisma.provisioningReconciliation.findUnique({ where: { id: runId } });
  if (run?.systemAccessId === systemId) return run;
  if (!(await prisma.systemAccess.findUnique({ where: { id: systemId }, select: { id: true } }))) {
    throw notFound(CONFIG_MESSAGES.systems.load);
  }
  throw notFound(PROVISIONING_MESSAGES.loadReconciliation);
}

/** GET .../provisioning/reconciliations: a page of system `id`'s runs, newest first. @throws 404 unknown system. */
export async function listReconciliations(
  prisma: PrismaClient,
  systemId: number,
  q: { page: number; size: number },
): Promise<Page<ReconciliationSummary>> {
  if (!(await prisma.systemAccess.findUnique({ where: { id: systemId }, select: { id: true } }))) {
    throw notFound(CONFIG_MESSAGES.systems.load);
  }
  const where = { systemAccessId: systemId };
  const [rows, total] = await Promise.all([
    prisma.provisioningReconciliation.findMany({ where, orderBy: { id: 'desc' }, ...pageWindow(q) }),
    prisma.provisioningReconciliation.count({ where }),
  ]);
  return toPage(rows.map(summaryView), total, q, 'id,desc');
}

/** A stored difference on the wire (an unknown stored kind reads as DRIFTED: something differs). */
function differenceView(d: {
  kind: string;
  externalId: string | null;
  userName: string | null;
  targetId: string | null;
  portalUserId: number | null;
  detail: string;
}): ProvisioningDifference {
  return {
    kind: PROVISIONING_DIFFERENCE_KINDS.find((k) => k === d.kind) ?? 'DRIFTED',
    externalId: d.externalId,
    userName: d.userName,
    targetId: d.targetId,
    portalUserId: d.portalUserId,
    detail: d.detail,
  };
}

/** GET .../provisioning/reconciliations/{runId}: the run and its first differences. @throws 404. */
export async function reconciliationReport(
  prisma: PrismaClient,
  systemId: number,
  runId: number,
): Promise<ReconciliationReport> {
  const run = await reconciliationOf(prisma, systemId, runId);
  const differences = await prisma.provisioningDifference.findMany({
    where: { reconciliationId: run.id },
    orderBy: { id: 'asc' },
    take: PROVISIONING_LIMITS.reportDifferences,
  });
  return { ...summaryView(run), differences: differences.map(differenceView) };
}
