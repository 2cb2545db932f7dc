/**
 * The proxy batch's filing activity (REQUEST-LIFECYCLE.md "Proxy bulk batch"; 001 §4 Proxy submission): one
 * user's access-change request through the one commit-then-start (`commitThenStart`) and the one
 * transactional filing of an access change (`fileAccessChange`, shared with the API; the rules where a batch
 * differs are stated there: 601 for any unresolved request, the type derived per user). In ONE transaction
 * under the (ACCESS_CHANGE, subject) filing lock:
 * - the user's item already has an outcome (an earlier attempt committed): that stored outcome, and the start
 *   again when the request's row is still unmarked;
 * - otherwise the filing's answer (200 filed, 601 skipped, 422, 304; the first user's 422 or 304 aborts the
 *   batch, 001 §4) stored as the item's outcome with the batch counters, beside the request row it filed.
 * Then `access-change-<id>` is started as the batch's request (`batchRequestStart`: `ProxyBatchId`, the batch's
 * requester label) and marked; a start that fails fails the attempt, whose retry finds the outcome.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { ACTIVE_REQUEST_EXISTS_STATUS, type AccessControl } from '@portal/contract';
import {
  type AccessChangeFilingResult,
  type PrismaClient,
  approvalStageCount,
  fileAccessChange,
  lockFiling,
  prismaRunner,
} from '@portal/db';
import {
  type FileProxyItemInput,
  PROXY_BATCH_NOT_FOUND,
  type ProxyItemOutcome,
  type WorkflowStart,
  accessChangeWorkflowId,
  batchRequestStart,
  commitThenStart,
} from '@portal/workflows';
import { personLabel } from '../request-reads';
import type { Tx } from '../types';

type Status = ProxyItemOutcome['responseStatus'];

/** The HTTP-like status a batch user's filing answers (001 §3 Per-user result). */
const STATUS_OF: Record<Exclude<AccessChangeFilingResult['outcome'], 'UNKNOWN_SUBJECT'>, Status> = {
  FILED: 200,
  OPEN_REQUEST: ACTIVE_REQUEST_EXISTS_STATUS,
  INVALID: 422,
  NO_CHANGES: 304,
};

interface Filed {
  outcome: ProxyItemOutcome;
  /** The filed request whose start is not confirmed: its parties, for the start. */
  unstarted: {
    subjectUserId: number;
    proxyUserId: number;
    subjectLabel: string;
    proxyLabel: string;
    /** The stages of the request's approval plan (docs/decisions.md "Approval policies"). */
    approvalStages: number;
  } | null;
}

const outcomeOf = (requestNum: number, status: Status, requestId: number | null): ProxyItemOutcome => ({
  requestNum,
  responseStatus: status,
  success: status === 200,
  requestId,
});

async function fileInTransaction(tx: Tx, input: FileProxyItemInput, proxyCommentMarker: string): Promise<Filed> {
  const where = { batchId_requestNum: { batchId: input.batchId, requestNum: input.requestNum } };
  const first = await tx.proxyBatchItem.findUnique({ where, select: { portalUserId: true } });
  if (!first) {
    throw ApplicationFailure.nonRetryable(
      `proxy batch ${input.batchId} has no user #${input.requestNum}`,
      PROXY_BATCH_NOT_FOUND,
    );
  }
  // The filing lock before the item's outcome is read: a concurrent attempt's commit is then visible.
  await lockFiling(tx, 'ACCESS_CHANGE', first.portalUserId);
  const item = await tx.proxyBatchItem.findUniqueOrThrow({ where, include: { batch: true } });
  if (item.responseStatus !== null) {
    const request = item.accessModRequestId
      ? await tx.accessModRequest.findUniqueOrThrow({
          where: { id: item.accessModRequestId },
          include: { subject: true, requester: true },
        })
      : null;
    return {
      outcome: outcomeOf(input.requestNum, item.responseStatus as Status, item.accessModRequestId),
      unstarted:
        request && !request.workflowStartedAt
          ? {
              subjectUserId: request.subjectUserId,
              proxyUserId: request.requesterUserId,
              subjectLabel: personLabel(request.subject),
              proxyLabel: personLabel(request.requester),
              approvalStages: approvalStageCount(request.approvalPlan),
            }
          : null,
    };
  }
  const proxy = await tx.portalUser.findUniqueOrThrow({ where: { id: item.batch.proxyUserId } });
  const filed = await fileAccessChange(prismaRunner(tx), {
    caller: 'PROXY_BATCH',
    batchId: input.batchId,
    subjectUserId: item.portalUserId,
    requester: { id: proxy.id, username: proxy.username },
    proxy: { id: proxy.id, name: `${proxy.firstName} ${proxy.lastName}`, email: proxy.email },
    proxyCommentMarker,
    // The item's own role block (one request per user and block, 001 §4).
    accessControls: (item.batch.accessControls as unknown as AccessControl[]).slice(item.blockNum - 1, item.blockNum),
    requesterComments: item.batch.requesterComments,
    workflowIdOf: accessChangeWorkflowId,
  });
  // The item names a user the batch's start read: one gone since is a broken batch, not a user's answer.
  if (filed.outcome === 'UNKNOWN_SUBJECT')
    throw new Error(`proxy batch ${input.batchId}: no user ${item.portalUserId}`);
  const status = STATUS_OF[filed.outcome];
  const request = filed.outcome === 'FILED' ? filed.request : null;
  const success = status === 200;
  await tx.proxyBatchItem.update({
    where,
    data: {
      responseStatus: status,
      success,
      activeRequestAlreadyExistsForUser: status === ACTIVE_REQUEST_EXISTS_STATUS,
      requestType: 'requestType' in filed ? filed.requestType : null,
      accessModRequestId: request?.id ?? null,
      fieldErrors: filed.outcome === 'INVALID' ? filed.fieldErrors : undefined,
      processedAt: new Date(),
    },
  });
  await tx.proxyBatch.update({
    where: { id: input.batchId },
    data: {
      processed: { increment: 1 },
      numSuccesses: { increment: success ? 1 : 0 },
      numFailures: { increment: success ? 0 : 1 },
    },
  });
  return {
    outcome: outcomeOf(input.requestNum, status, request?.id ?? null),
    unstarted: request && {
      subjectUserId: request.subjectUserId,
      proxyUserId: proxy.id,
      subjectLabel: personLabel(request.subject),
      approvalStages: approvalStageCount(request.approvalPlan),
      proxyLabel: personLabel(proxy),
    },
  };
}

/** Builds the activity around one Prisma client; the Temporal client is the worker's (activity context). */
export function createFileProxyBatchItem(prisma: PrismaClient, proxyCommentMarker: string) {
  return async function fileProxyBatchItem(input: FileProxyItemInput): Promise<ProxyItemOutcome> {
    const ctx = Context.current();
    const startOf = ({ outcome, unstarted }: Filed): WorkflowStart | null =>
      unstarted && outcome.requestId !== null
        ? batchRequestStart(
            input.batchId,
            {
              requestId: outcome.requestId,
              subjectUserId: unstarted.subjectUserId,
              requesterUserId: unstarted.proxyUserId,
              notificationDeadline: input.notificationDeadline,
              writeDeadline: input.writeDeadline,
              writeAttemptTimeout: input.writeAttemptTimeout,
              approvalStages: unstarted.approvalStages,
            },
            unstarted,
          )
        : null;
    const filed = await commitThenStart(
      { client: ctx.client, taskQueue: ctx.info.taskQueue, deadlineMs: 10_000 },
      {
        commit: () =>
          prisma.$transaction((tx) => fileInTransaction(tx, input, proxyCommentMarker), { timeout: 20_000 }),
        startOf,
        markStarted: async ({ outcome }) => {
          await prisma.accessModRequest.update({
            where: { id: outcome.requestId! },
            data: { workflowStartedAt: new Date() },
          });
        },
      },
    );
    // A start that failed fails this attempt: its retry finds the stored outcome and starts it again.
    if (filed.start === 'DEFERRED') throw filed.error;
    return filed.committed.outcome;
  };
}
