/**
 * The activities of a system's reconciliation (issue 41, workflows/src/provisioning/reconcile-workflow.ts):
 * page through the target's users, compare each with the portal's wanted state, store every difference, and
 * find the accounts missing at the target in SQL from the externalIds seen. Report-only: nothing is written to
 * the target. Memory stays bounded by the chunk (never the whole listing): the externalIds seen go to
 * `ProvisioningSeen`, not to a set in this process.
 */
import { Context } from '@temporalio/activity';
import type { ProvisioningAccessAs, ProvisioningDifferenceKind } from '@portal/contract';
import { Prisma, type PrismaClient, type WantedAccount, wantedAccounts } from '@portal/db';
import { type ScimResource, driftOf } from '@portal/scim';
import type { ProvisionReconcileActivities } from '@portal/workflows';
import { type ProvisioningSettings, scimClientFor } from './provisioning';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Difference {
  kind: ProvisioningDifferenceKind;
  externalId: string | null;
  userName: string | null;
  targetId: string | null;
  portalUserId: number | null;
  detail: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** What one target user differs in from the portal's truth, or null when it is as it should be. */
export function differenceOf(
  held: ScimResource,
  wanted: WantedAccount | undefined,
  accessAs: ProvisioningAccessAs,
): Difference | null {
  const base = {
    externalId: typeof held.externalId === 'string' ? clip(held.externalId, 256) : null,
    userName: typeof held.userName === 'string' ? clip(held.userName, 256) : null,
    targetId: clip(held.id, 256),
    portalUserId: wanted?.portalUserId ?? null,
  };
  const heldActive = held.active !== false;
  if (!wanted) {
    return heldActive
      ? { kind: 'ORPHAN', ...base, detail: base.externalId ? 'No portal user has this externalId' : 'No externalId' }
      : null;
  }
  if (!wanted.active) {
    return heldActive ? { kind: 'ORPHAN', ...base, detail: 'Active at the target without access in the portal' } : null;
  }
  const drift = driftOf(wanted, held, accessAs);
  if (!drift.length) return null;
  const detail = drift.map((d) => `${d.attribute}: portal "${d.wanted}", target "${d.held}"`).join('; ');
  return { kind: 'DRIFTED', ...base, detail: clip(detail, 2048) };
}

export function createProvisionReconcileActivities(
  prisma: PrismaClient,
  settings: ProvisioningSettings,
): ProvisionReconcileActivities {
  return {
    async beginReconciliation({ systemAccessId, reconciliationId }) {
      if (reconciliationId) return reconciliationId;
      const row = await prisma.provisioningReconciliation.create({ data: { systemAccessId } });
      return row.id;
    },

    async reconcileChunk({ reconciliationId, startIndex, chunk, pageSize }) {
      const run = await prisma.provisioningReconciliation.findUniqueOrThrow({ where: { id: reconciliationId } });
      // A retry of a chunk that already committed: go on from where it ended.
      if (run.nextIndex !== startIndex) return run.nextIndex > 0 ? run.nextIndex : null;
      const conn = await prisma.provisioningConnection.findUniqueOrThrow({
        where: { systemAccessId: run.systemAccessId },
      });
      const scim = scimClientFor(conn, settings);
      const accessAs = conn.accessAs as ProvisioningAccessAs;
      const differences: Difference[] = [];
      const seen: string[] = [];
      let read = 0;
      let next: number | null = startIndex;
      while (next !== null && read < chunk) {
        const { users, total } = await scim.listUsers(next, Math.min(pageSize, chunk - read));
        Context.current().heartbeat(next);
        const ids = users
          .map((u) => u.externalId)
          .filter((id): id is string => typeof id === 'string' && UUID.test(id));
        const wanted = ids.length
          ? await wantedAccounts(prisma, run.systemAccessId, Prisma.sql`u."subjectId" = ANY(${ids}::uuid[])`)
          : [];
        const bySubject = new Map(wanted.map((w) => [w.subjectId, w]));
        for (const user of users) {
          const externalId = typeof user.externalId === 'string' ? user.externalId.toLowerCase() : undefined;
          if (externalId && bySubject.has(externalId)) seen.push(externalId);
          const difference = differenceOf(user, externalId ? bySubject.get(externalId) : undefined, accessAs);
          if (difference) differences.push(difference);
        }
        read += users.length;
        next = users.length && next + users.length <= total ? next + users.length : null;
      }
      // One transaction per chunk, guarded by the start index it read from (a retry does not count twice).
      await prisma.$transaction(async (tx) => {
        const moved = await tx.provisioningReconciliation.updateMany({
          where: { id: reconciliationId, nextIndex: startIndex },
          data: {
            nextIndex: next ?? 0,
            targetAccounts: { increment: read },
            orphans: { increment: differences.filter((d) => d.kind === 'ORPHAN').length },
            drifted: { increment: differences.filter((d) => d.kind === 'DRIFTED').length },
          },
        });
        if (!moved.count) return;
        if (differences.length) {
          await tx.provisioningDifference.createMany({ data: differences.map((d) => ({ reconciliationId, ...d })) });
        }
        if (seen.length) {
          await tx.provisioningSeen.createMany({
            data: seen.map((externalId) => ({ reconciliationId, externalId })),
            skipDuplicates: true,
          });
        }
      });
      return next;
    },

    async finishReconciliation({ reconciliationId, error }) {
      const run = await prisma.provisioningReconciliation.findUniqueOrThrow({ where: { id: reconciliationId } });
      if (run.status !== 'RUNNING') return;
      await prisma.$transaction(async (tx) => {
        // The people the system should hold an active account for: active in the portal, holding access to it.
        const should = Prisma.sql`
          SELECT u."id", u."subjectId"::text AS "subjectId", u."username" FROM "PortalUser" u
           WHERE NOT u."inactive" AND EXISTS (SELECT 1 FROM "UserAccess" a
             WHERE a."portalUserId" = u."id" AND NOT a."inactive" AND ${run.systemAccessId}::int4 = ANY(a."systemAccessIds"))`;
        const missing = error
          ? 0
          : await tx.$executeRaw`
              INSERT INTO "ProvisioningDifference" ("reconciliationId", "kind", "externalId", "userName", "portalUserId", "detail")
              SELECT ${reconciliationId}::int4, 'MISSING', w."subjectId", w."username", w."id", 'No account at the target'
                FROM (${should}) w
               WHERE NOT EXISTS (SELECT 1 FROM "ProvisioningSeen" s
                                  WHERE s."reconciliationId" = ${reconciliationId} AND s."externalId" = w."subjectId")
               ORDER BY w."id"`;
        const [wanted] = await tx.$queryRaw<Array<{ count: number }>>`SELECT count(*)::int AS count FROM (${should}) w`;
        await tx.provisioningReconciliation.update({
          where: { id: reconciliationId },
          data: {
            status: error ? 'FAILED' : 'DONE',
            error: error ? clip(error, 1024) : null,
            finishedAt: new Date(),
            missing,
            portalAccounts: wanted?.count ?? 0,
          },
        });
        await tx.provisioningSeen.deleteMany({ where: { reconciliationId } });
      });
    },
  };
}
