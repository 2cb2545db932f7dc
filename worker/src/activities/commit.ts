/**
 * The lifecycle's commit activity (REQUEST-LIFECYCLE rule 2): one save of any request kind is written in
 * ONE transaction: the kind's effects, the request row and the audit row keyed `<workflowId>:<version>`
 * with a digest of the save. A retry (after a lost completion, a worker killed mid-activity) finds that key
 * with the same digest and returns the save as committed without writing again (rule 4); a different save
 * under that key is answered SUPERSEDED with the state the committed one left (issue 21 case 1). The kind's
 * database checks may refuse the save (422 / 304), leaving everything unchanged. Every writer of a user's
 * access takes that user's lock (rule 7).
 */
import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { stringify } from 'safe-stable-stringify';
import { SIGNATURE_ERRORS } from '@portal/contract';
import {
  type AuditEvent,
  type PrismaClient,
  type RequestEntityType,
  loadRequestDecisions,
  lockUserAccess,
  recordAudit,
  requestDecisionContent,
  takeSignatureTicket,
  writeSignature,
} from '@portal/db';
import {
  type CommitReading,
  type CommitRefusal,
  type CommitResult,
  type CommitSaveInput,
  NON_RETRYABLE_ERRORS,
  REVIEW_FAILURES,
  commitKey,
  type OutsideEffectsInput,
} from '@portal/workflows';
import { storeOf } from '../kinds';
import type { OutsideEffectsContext, UndoAudit } from '../kinds/types';

export function createCommitSave(prisma: PrismaClient) {
  return async function commitSave(input: CommitSaveInput): Promise<CommitResult> {
    const store = storeOf(input.kind);
    const key = saveKey(input);
    const digest = saveDigest(input);
    return prisma.$transaction(
      async (tx) => {
        const done = await tx.auditEvent.findUnique({ where: { idempotencyKey: key } });
        if (done) return committedAs(done, digest);
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
        // A signed save takes its ticket before writing anything (docs/decisions.md "Electronic signatures"): a
        // ticket used, expired or another person's refuses the save with nothing written. A retry of a save
        // already committed returned above, before this: its ticket was taken by the attempt that committed.
        const ticket = input.signature
          ? await takeSignatureTicket(tx, input.signature.ticketId, input.actor.userId)
          : null;
        if (input.signature && !ticket) {
          return {
            outcome: 'REFUSED',
            failure: REVIEW_FAILURES.invalid,
            fieldErrors: {},
            globalErrors: [SIGNATURE_ERRORS.invalid],
          };
        }
        await store.effects(tx, input, row);
        await store.write(tx, input);
        const audit = await recordAudit(tx, input.actor, {
          entityType: store.entityType,
          entityId: input.requestId,
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
          idempotencyDigest: digest,
        });
        if (ticket) {
          const kind = store.entityType as RequestEntityType;
          const facts = (await loadRequestDecisions(tx, kind, [input.requestId])).get(input.requestId)!;
          await writeSignature(tx, ticket, {
            entityType: kind,
            entityId: input.requestId,
            entityVersion: input.version,
            content: requestDecisionContent(facts),
          });
        }
        // The approval of a registration gives the request its subject (issue 21 case 9).
        const subjectUserId = row.subjectUserId ?? (await store.load(tx, input.requestId))?.subjectUserId;
        return { outcome: 'COMMITTED', at: audit.at.toISOString(), subjectUserId };
      },
      { timeout: 20_000 },
    );
  };
}

/**
 * What the database holds under a save's key, read after its commit failed or timed out (issue 21 case 1):
 * the attempt that timed out may have committed, and the workflow takes the committed state as its own.
 */
export function createReadCommittedSave(prisma: PrismaClient) {
  return async function readCommittedSave(input: CommitSaveInput): Promise<CommitReading> {
    const done = await prisma.auditEvent.findUnique({ where: { idempotencyKey: saveKey(input) } });
    return done ? committedAs(done, saveDigest(input)) : { outcome: 'NOT_COMMITTED' };
  };
}

const saveKey = (input: CommitSaveInput): string => commitKey(input.workflowId, input.version);

/** SHA-256 (hex) of what a save writes, keys sorted: equal for every attempt and retry of one save. */
function saveDigest(input: CommitSaveInput): string {
  const { kind, requestId, fromStatus, toStatus, reviewerComments, sysaidTicket, actor, payload } = input;
  const what = { kind, requestId, fromStatus, toStatus, reviewerComments, sysaidTicket, actor: actor.userId, payload };
  return createHash('sha256').update(stringify(what)).digest('hex');
}

/** The answer to a save whose key is taken: the same save (or a row older than digests) or another one. */
function committedAs(done: AuditEvent, digest: string): CommitResult & CommitReading {
  if (done.idempotencyDigest === null || done.idempotencyDigest === digest) {
    return { outcome: 'COMMITTED', at: done.at.toISOString() };
  }
  const after = (done.after ?? {}) as Record<string, unknown>;
  return {
    outcome: 'SUPERSEDED',
    committed: {
      version: Number(after.versionno),
      status: String(after.requestStatus),
      reviewerComments: String(after.reviewerComments ?? ''),
      sysaidTicket: String(after.sysaidTicket ?? ''),
      lastModifiedBy: done.actorUsername,
    },
  };
}

/**
 * The kinds' effects outside the database (rule 3), run before the approving commit: the kind's own
 * idempotent activity (registrations: the directory entry created under a stable key, or linked).
 */
export function createApplyOutsideEffects(ctx: OutsideEffectsContext) {
  return async function applyOutsideEffects(input: OutsideEffectsInput): Promise<CommitRefusal | null> {
    return (await storeOf(input.kind).applyOutsideEffects?.(ctx, input)) ?? null;
  };
}

/**
 * Undoes the kind's effects outside the database that may have run (issue 21 case 2), before a save other than
 * the approval commits, and audits what it undid (keyed `<workflowId>:<version>:undo`, written once).
 */
export function createUndoOutsideEffects(ctx: OutsideEffectsContext) {
  return async function undoOutsideEffects(input: OutsideEffectsInput): Promise<void> {
    const audit: UndoAudit = async (tx, undone) => {
      await tx.auditEvent.createMany({
        data: [
          {
            actorUserId: input.actor.userId,
            actorUsername: input.actor.username,
            ...undone,
            workflowId: input.workflowId,
            idempotencyKey: `${input.workflowId}:${input.version ?? 0}:undo`,
          },
        ],
        skipDuplicates: true,
      });
    };
    await storeOf(input.kind).undoOutsideEffects?.(ctx, input, audit);
  };
}
