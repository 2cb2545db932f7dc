/**
 * The lifecycle's commit activity (REQUEST-LIFECYCLE rule 2): one save of any request kind is written in
 * ONE transaction: the kind's effects, the request row and the audit row keyed `<workflowId>:<version>`.
 * A retry (after a lost completion, a worker killed mid-activity) finds that key and returns the save as
 * committed without writing again (rule 4). The kind's database checks may refuse the save (422 / 304),
 * leaving everything unchanged. Every writer of a user's access takes that user's lock (rule 7).
 */
import { ApplicationFailure } from '@temporalio/activity';
import { type PrismaClient, lockUserAccess } from '@portal/db';
import {
  type CommitResult,
  type CommitSaveInput,
  NON_RETRYABLE_ERRORS,
  type OutsideEffectsInput,
} from '@portal/workflows';
import { storeOf } from '../kinds';
import type { OutsideEffectsContext } from '../kinds/types';

export function createCommitSave(prisma: PrismaClient) {
  return async function commitSave(input: CommitSaveInput): Promise<CommitResult> {
    const store = storeOf(input.kind);
    const key = `${input.workflowId}:${input.version}`;
    return prisma.$transaction(
      async (tx) => {
        const done = await tx.auditEvent.findUnique({ where: { idempotencyKey: key } });
        if (done) return { outcome: 'COMMITTED', at: done.at.toISOString() };
        const row = await store.load(tx, input.requestId);
        if (!row) {
          throw ApplicationFailure.nonRetryable(
            `request ${input.requestId} not found`,
            NON_RETRYABLE_ERRORS.requestNotFound,
          );
        }
        if (row.version !== input.version - 1) {
          throw ApplicationFailure.nonRetryable(
            `request ${input.requestId} is at version ${row.version}, the save expects ${input.version - 1}`,
            NON_RETRYABLE_ERRORS.versionConflict,
          );
        }
        if (row.subjectUserId !== null) await lockUserAccess(tx, row.subjectUserId);
        const refusal = await store.check(tx, input, row);
        if (refusal) return refusal;
        await store.effects(tx, input, row);
        await store.write(tx, input);
        const audit = await tx.auditEvent.create({
          data: {
            actorUserId: input.actor.userId,
            actorUsername: input.actor.username,
            entityType: store.entityType,
            entityId: String(input.requestId),
            action: input.fromStatus === input.toStatus ? 'REVIEW_SAVED' : `STATUS_${input.toStatus}`,
            before: {
              requestStatus: row.status,
              reviewerComments: row.reviewerComments,
              sysaidTicket: row.sysaidTicket,
              versionno: row.version,
            },
            after: {
              requestStatus: input.toStatus,
              reviewerComments: input.reviewerComments,
              sysaidTicket: input.sysaidTicket,
              versionno: input.version,
            },
            workflowId: input.workflowId,
            idempotencyKey: key,
          },
        });
        return { outcome: 'COMMITTED', at: audit.at.toISOString() };
      },
      { timeout: 20_000 },
    );
  };
}

/**
 * The kinds' effects outside the database (rule 3), run before the approving commit: the kind's own
 * idempotent activity (registrations: the directory entry created under a stable key, or linked).
 */
export function createApplyOutsideEffects(ctx: OutsideEffectsContext) {
  return async function applyOutsideEffects(input: OutsideEffectsInput): Promise<void> {
    await storeOf(input.kind).applyOutsideEffects?.(ctx, input);
  };
}
