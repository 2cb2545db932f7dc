/**
 * Starting a proxy batch (001 §2.7; REQUEST-LIFECYCLE.md "Proxy bulk batch", rule 1): the proxy right (403
 * without it), the requester and duplicate emails dropped, unknown or inactive users refused (422
 * `portalUserIds`), without forAllUsers every user at one of the proxy's sites (403 otherwise), the shared
 * role block validated once (422 `accessControls[0].*`); then the batch row and one item per user are
 * committed under the (PROXY_BATCH, proxy) filing lock and `proxy-batch-<id>` is started, through the one
 * commit-then-start of every kind (`fileAndStart`; a failed start is left to the worker's reconciler).
 */
import type { ProxyBatchDetail, StartProxyBatchBody } from '@portal/contract';
import { proxyBatchStart, proxyBatchWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { forbidden, unprocessable } from '../../../http/errors';
import { fileAndStart } from '../../../shared/filing';
import { checkAccessControls, loadReferenceSets } from '../../../shared/access-rules';
import { proxyRulesOf } from '../../../shared/proxy-capability';
import { loadProxyScope, unreachableUsers } from '../../../shared/proxy-scope';
import { proxyBatchDetailView } from './view';
import { recordAudit } from '../../../shared/audit-log';

export async function startProxyBatch(
  deps: Deps,
  actor: AuthContext,
  body: StartProxyBatchBody,
): Promise<ProxyBatchDetail> {
  const { prisma } = deps;
  const scope = await loadProxyScope(prisma, proxyRulesOf(deps.cfg), actor.userId);
  if (!scope.canSubmit) throw forbidden();

  const users = await prisma.portalUser.findMany({
    where: { id: { in: body.portalUserIds } },
    select: { id: true, firstName: true, lastName: true, email: true, inactive: true },
  });
  const byId = new Map(users.map((u) => [u.id, u]));
  if (body.portalUserIds.some((id) => !byId.get(id) || byId.get(id)!.inactive)) {
    throw unprocessable({ portalUserIds: ['unknown'] });
  }
  // 001 §5: the requester and duplicate emails are dropped (the first selection of an email is kept).
  const seen = new Set([actor.email.toLowerCase()]);
  const selected = body.portalUserIds.flatMap((id) => {
    const u = byId.get(id)!;
    const email = u.email.toLowerCase();
    if (id === actor.userId || seen.has(email)) return [];
    seen.add(email);
    return [u];
  });
  if (!selected.length) throw unprocessable({ portalUserIds: ['required'] });
  if (
    (
      await unreachableUsers(
        prisma,
        scope,
        selected.map((u) => u.id),
      )
    ).length
  )
    throw forbidden();

  const fieldErrors = checkAccessControls(body.accessControls, await loadReferenceSets(prisma));
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);

  const proxyLabel = `${actor.firstName} ${actor.lastName} (${actor.username})`;
  const { requestId: batchId } = await fileAndStart(deps, {
    // One batch filing per proxy at a time: the batch's subject is its proxy.
    lock: { kind: 'PROXY_BATCH', id: actor.userId },
    start: (id) =>
      proxyBatchStart(id, selected.length * body.accessControls.length, {
        proxyUserId: actor.userId,
        proxyLabel,
        notificationDeadline: deps.cfg.MAIL_DEADLINE,
        writeDeadline: deps.cfg.WRITE_DEADLINE,
        writeAttemptTimeout: deps.cfg.WRITE_ATTEMPT_TIMEOUT,
      }),
    markStarted: async (id) => {
      await prisma.proxyBatch.update({ where: { id }, data: { workflowStartedAt: new Date() } });
    },
    insert: async (tx) => {
      const [{ id }] = await tx.$queryRaw<
        [{ id: bigint }]
      >`SELECT nextval(pg_get_serial_sequence('"ProxyBatch"', 'id')) AS id`;
      const batchId = Number(id);
      await tx.proxyBatch.create({
        data: {
          id: batchId,
          workflowId: proxyBatchWorkflowId(batchId),
          proxyUserId: actor.userId,
          accessControls: body.accessControls.map((b) => ({ ...b, questionNum: b.questionNum ?? 1 })),
          requesterComments: body.requesterComments,
          totalRequests: selected.length * body.accessControls.length,
        },
      });
      // One item per user and block, a user's blocks one after another (001 §4: in order).
      const blocks = body.accessControls.length;
      await tx.proxyBatchItem.createMany({
        data: selected.flatMap((u, i) =>
          body.accessControls.map((_, b) => ({
            batchId,
            requestNum: i * blocks + b + 1,
            blockNum: b + 1,
            portalUserId: u.id,
            firstName: u.firstName,
            lastName: u.lastName,
            email: u.email,
          })),
        ),
      });
      await recordAudit(tx, actor, {
        entityType: 'ProxyBatch',
        entityId: batchId,
        action: 'CREATED',
        after: { totalRequests: selected.length * body.accessControls.length, accessControls: body.accessControls },
        workflowId: proxyBatchWorkflowId(batchId),
        idempotencyKey: `${proxyBatchWorkflowId(batchId)}:0`,
      });
      return { requestId: batchId, result: batchId };
    },
  });
  const batch = await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batchId } });
  const items = await prisma.proxyBatchItem.findMany({ where: { batchId }, orderBy: { requestNum: 'asc' } });
  return proxyBatchDetailView(batch, items);
}
