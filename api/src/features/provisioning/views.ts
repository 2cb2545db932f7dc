/**
 * Provisioning rows on the wire (issue 41; contract/src/provisioning.ts): a connection without its token (only
 * whether there is one), a reconciliation's summary, and what the audit trail keeps of a connection.
 */
import {
  PROVISIONING_ACCESS_AS,
  type ProvisioningConnection,
  type ReconciliationSummary,
  ReconciliationSummarySchema,
} from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';

export type ConnectionRow = Prisma.ProvisioningConnectionGetPayload<object>;
export type ReconciliationRow = Prisma.ProvisioningReconciliationGetPayload<object>;

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/** A run's summary (the stored status is one of RUNNING, DONE, FAILED; anything else reads as FAILED). */
export function summaryView(r: ReconciliationRow): ReconciliationSummary {
  const status = ReconciliationSummarySchema.shape.status.safeParse(r.status);
  return {
    id: r.id,
    systemAccessId: r.systemAccessId,
    status: status.success ? status.data : 'FAILED',
    startedAt: r.startedAt.toISOString(),
    finishedAt: iso(r.finishedAt),
    requestedBy: r.requestedBy,
    targetAccounts: r.targetAccounts,
    portalAccounts: r.portalAccounts,
    orphans: r.orphans,
    missing: r.missing,
    drifted: r.drifted,
    error: r.error,
  };
}

/** What the audit trail keeps of a connection: its settings and `hasToken`, never the token nor its sealed form. */
export function auditSnapshot(r: ConnectionRow) {
  return {
    baseUrl: r.baseUrl,
    hasToken: r.tokenSealed !== null,
    enabled: r.enabled,
    accessAs: r.accessAs,
    deleteOnRemoval: r.deleteOnRemoval,
    retryDays: r.retryDays,
    reconcileEveryMinutes: r.reconcileEveryMinutes,
  };
}

/** The account counts by state at `systemAccessId` (ProvisioningAccount grouped; index systemAccessId, state). */
async function accountCounts(
  prisma: PrismaClient,
  systemAccessId: number,
): Promise<ProvisioningConnection['accounts']> {
  const rows = await prisma.provisioningAccount.groupBy({
    by: ['state'],
    where: { systemAccessId },
    _count: { _all: true },
  });
  const of = (state: string) => rows.find((r) => r.state === state)?._count._all ?? 0;
  return { pending: of('PENDING'), inSync: of('IN_SYNC'), error: of('ERROR') };
}

/** Connection `r` as Configure → Systems shows it: its settings, account counts and last reconciliation. */
export async function connectionView(prisma: PrismaClient, r: ConnectionRow): Promise<ProvisioningConnection> {
  const [accounts, last] = await Promise.all([
    accountCounts(prisma, r.systemAccessId),
    prisma.provisioningReconciliation.findFirst({
      where: { systemAccessId: r.systemAccessId },
      orderBy: { id: 'desc' },
    }),
  ]);
  return {
    systemAccessId: r.systemAccessId,
    baseUrl: r.baseUrl,
    hasToken: r.tokenSealed !== null,
    enabled: r.enabled,
    accessAs: PROVISIONING_ACCESS_AS.find((a) => a === r.accessAs) ?? 'EXTENSION',
    deleteOnRemoval: r.deleteOnRemoval,
    retryDays: r.retryDays,
    reconcileEveryMinutes: r.reconcileEveryMinutes,
    lastTestAt: iso(r.lastTestAt),
    lastTestOk: r.lastTestOk,
    lastTestMessage: r.lastTestMessage,
    accounts,
    lastReconciliation: last ? summaryView(last) : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
