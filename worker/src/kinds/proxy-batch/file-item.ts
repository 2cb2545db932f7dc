/**
 * The proxy batch's filing activity (REQUEST-LIFECYCLE.md "Proxy bulk batch"; 001 §4 Proxy submission): one
 * user's access-change request, in ONE transaction under the (ACCESS_CHANGE, subject) filing lock:
 * - the user's item already has an outcome (an earlier attempt committed): that stored outcome;
 * - the user has an unresolved access-change request: 601, skipped;
 * - the request type for this user: NEW when they do not hold the role, CHANGE when they do;
 * - 422 when the role is no longer an active study role, 304 for a CHANGE identical to what they hold with
 *   no comment;
 * - otherwise the request row (comment prefixed with the proxy marker), its CREATED audit row, the item's
 *   outcome and the batch counters.
 * After the commit it starts `access-change-<id>` (rule 1) with `ProxyBatchId`, and marks the row started;
 * a retried attempt that finds the outcome starts it again when the row is still unmarked.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  ACTIVE_REQUEST_EXISTS_STATUS,
  type AccessControl,
  RESOLVED_STATUSES,
  type RequestType,
  proxyComment,
} from '@portal/contract';
import { type PrismaClient, lockFiling } from '@portal/db';
import {
  type FileProxyItemInput,
  PROXY_BATCH_NOT_FOUND,
  ProxyBatchIdKey,
  type ProxyItemOutcome,
  accessChangeDefinition,
  accessChangeWorkflowId,
  startRequestWorkflow,
} from '@portal/workflows';
import type { Tx } from '../types';

type Status = ProxyItemOutcome['responseStatus'];

const sameSet = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;

/** True when `block` asks for exactly what the held record gives. */
function sameAccess(
  block: AccessControl,
  held: { siteCodes: string[]; laoIds: string[]; studyNames: string[]; systemAccessIds: number[] },
): boolean {
  return (
    sameSet(block.siteCodes, held.siteCodes) &&
    sameSet(block.laoIds, held.laoIds) &&
    sameSet(block.studyNames, held.studyNames) &&
    sameSet(block.systemAccessIds, held.systemAccessIds)
  );
}

interface Filed {
  outcome: ProxyItemOutcome;
  /** What the start after the commit needs, when the request's workflow is not known to run. */
  start: { subjectUserId: number; proxyUserId: number; subjectLabel: string; proxyLabel: string } | null;
}

const stored = (item: {
  requestNum: number;
  responseStatus: number | null;
  success: boolean | null;
  accessModRequestId: number | null;
}): ProxyItemOutcome => ({
  requestNum: item.requestNum,
  responseStatus: item.responseStatus as Status,
  success: item.success ?? false,
  requestId: item.accessModRequestId,
});

const label = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

async function fileInTransaction(tx: Tx, input: FileProxyItemInput): Promise<Filed> {
  const key = { batchId_requestNum: { batchId: input.batchId, requestNum: input.requestNum } };
  const first = await tx.proxyBatchItem.findUnique({ where: key, include: { batch: true } });
  if (!first) {
    throw ApplicationFailure.nonRetryable(
      `proxy batch ${input.batchId} has no user #${input.requestNum}`,
      PROXY_BATCH_NOT_FOUND,
    );
  }
  await lockFiling(tx, 'ACCESS_CHANGE', first.portalUserId);
  // Read again under the lock: a concurrent attempt of this activity may have committed meanwhile.
  const item = first.responseStatus === null ? await tx.proxyBatchItem.findUniqueOrThrow({ where: key }) : first;
  const batch = first.batch;
  if (item.responseStatus !== null) return { outcome: stored(item), start: null };

  const [subject, proxy] = await Promise.all([
    tx.portalUser.findUniqueOrThrow({ where: { id: item.portalUserId } }),
    tx.portalUser.findUniqueOrThrow({ where: { id: batch.proxyUserId } }),
  ]);
  const block = (batch.accessControls as AccessControl[])[0]!;
  const record = async (
    status: Status,
    extra: { requestType?: RequestType; accessModRequestId?: number; fieldErrors?: Record<string, string[]> } = {},
  ): Promise<ProxyItemOutcome> => {
    const success = status === 200;
    await tx.proxyBatchItem.update({
      where: key,
      data: {
        responseStatus: status,
        success,
        activeRequestAlreadyExistsForUser: status === ACTIVE_REQUEST_EXISTS_STATUS,
        requestType: extra.requestType ?? null,
        accessModRequestId: extra.accessModRequestId ?? null,
        fieldErrors: extra.fieldErrors ?? undefined,
        processedAt: new Date(),
      },
    });
    await tx.proxyBatch.update({
      where: { id: batch.id },
      data: {
        processed: { increment: 1 },
        ...(success ? { numSuccesses: { increment: 1 } } : { numFailures: { increment: 1 } }),
      },
    });
    return {
      requestNum: item.requestNum,
      responseStatus: status,
      success,
      requestId: extra.accessModRequestId ?? null,
    };
  };

  const open = await tx.accessModRequest.findFirst({
    where: { subjectUserId: subject.id, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
    select: { id: true },
  });
  if (open || subject.inactive) {
    // An inactive subject is refused like an open request: nothing may be filed for them now.
    return { outcome: await record(open ? ACTIVE_REQUEST_EXISTS_STATUS : 422), start: null };
  }
  const role = await tx.studyRole.findFirst({ where: { roleName: block.roleName, inactive: false } });
  if (!role) {
    return {
      outcome: await record(422, { fieldErrors: { 'accessControls[0].roleName': ['unknown'] } }),
      start: null,
    };
  }
  const held = await tx.userAccess.findFirst({
    where: { portalUserId: subject.id, roleName: block.roleName, inactive: false },
  });
  const requestType: RequestType = held ? 'CHANGE' : 'NEW';
  if (held && sameAccess(block, held) && !batch.requesterComments) {
    return { outcome: await record(304, { requestType }), start: null };
  }

  const [{ id }] = await tx.$queryRaw<
    [{ id: bigint }]
  >`SELECT nextval(pg_get_serial_sequence('"AccessModRequest"', 'id')) AS id`;
  const requestId = Number(id);
  const workflowId = accessChangeWorkflowId(requestId);
  const party = (u: typeof subject) => ({ name: `${u.firstName} ${u.lastName}`, email: u.email, id: u.id });
  const accessControls = [{ ...block, questionNum: block.questionNum ?? 1 }];
  await tx.accessModRequest.create({
    data: {
      id: requestId,
      workflowId,
      requestType,
      requestStatus: 'NEW',
      subjectUserId: subject.id,
      requesterUserId: proxy.id,
      isProxyRequest: true,
      accessControls,
      existingUserAccessId: held?.id ?? null,
      requesterComments: proxyComment(party(proxy), party(subject), batch.requesterComments).slice(0, 1024),
      lastModifiedBy: proxy.username,
    },
  });
  await tx.auditEvent.create({
    data: {
      actorUserId: proxy.id,
      actorUsername: proxy.username,
      entityType: 'AccessModRequest',
      entityId: String(requestId),
      action: 'CREATED',
      after: { requestType, requestStatus: 'NEW', accessControls, proxyBatchId: batch.id },
      workflowId,
      idempotencyKey: `${workflowId}:0`,
    },
  });
  const outcome = await record(200, { requestType, accessModRequestId: requestId });
  return {
    outcome,
    start: { subjectUserId: subject.id, proxyUserId: proxy.id, subjectLabel: label(subject), proxyLabel: label(proxy) },
  };
}

/** Builds the activity around one Prisma client; the Temporal client is the worker's (activity context). */
export function createFileProxyBatchItem(prisma: PrismaClient) {
  return async function fileProxyBatchItem(input: FileProxyItemInput): Promise<ProxyItemOutcome> {
    let filed = await prisma.$transaction((tx) => fileInTransaction(tx, input), { timeout: 20_000 });
    const requestId = filed.outcome.requestId;
    if (!filed.start && requestId !== null) {
      // An earlier attempt filed it; start its workflow unless that start was confirmed.
      const row = await prisma.accessModRequest.findUniqueOrThrow({
        where: { id: requestId },
        include: { subject: true, requester: true },
      });
      if (row.workflowStartedAt) return filed.outcome;
      filed = {
        ...filed,
        start: {
          subjectUserId: row.subjectUserId,
          proxyUserId: row.requesterUserId,
          subjectLabel: label(row.subject),
          proxyLabel: label(row.requester),
        },
      };
    }
    if (filed.start && requestId !== null) {
      const ctx = Context.current();
      await startRequestWorkflow(
        ctx.client,
        accessChangeDefinition,
        {
          requestId,
          subjectUserId: filed.start.subjectUserId,
          requesterUserId: filed.start.proxyUserId,
          notificationDeadline: input.notificationDeadline,
        },
        {
          taskQueue: ctx.info.taskQueue,
          subjectLabel: filed.start.subjectLabel,
          requesterLabel: `${filed.start.proxyLabel}, proxy batch #${input.batchId}`,
          extraSearchAttributes: [{ key: ProxyBatchIdKey, value: String(input.batchId) }],
        },
      );
      await prisma.accessModRequest.update({ where: { id: requestId }, data: { workflowStartedAt: new Date() } });
    }
    return filed.outcome;
  };
}
