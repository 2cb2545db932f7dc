/**
 * The effect of a reviewer's save of an access-change request (001 §2.8, §4 Apply Above Changes; 000 §7
 * review_access_change_request): the user's portal roles and access records as the reviewer left them, written
 * on saving whatever the status. Approval by itself grants nothing: what is granted is what the reviewer
 * applied (docs/decisions.md). Runs inside the commit transaction, under the subject's access lock (taken by
 * the commit, rule 7), with the shared writer of `@portal/db` (the one the API's user_access calls use), so
 * the roles, the records and the request row are written together or not at all (rule 2).
 */
import { ApplicationFailure } from '@temporalio/activity';
import { type AccessReviewPayload, AccessReviewPayloadSchema } from '@portal/contract';
import { type AccessWriteCheck, checkAccessWrite, writeAccess, writesSomething } from '@portal/db';
import { type CommitSaveInput, NON_RETRYABLE_ERRORS, REVIEW_FAILURES } from '@portal/workflows';
import { auditEffect } from '../effect-audit';
import type { Refusal, StoredRequest, Tx } from '../types';

/** The save's payload, parsed; an unreadable one can never succeed (non-retryable). */
export function reviewPayload(input: CommitSaveInput): AccessReviewPayload {
  if (input.payload === undefined) return {};
  const parsed = AccessReviewPayloadSchema.safeParse(input.payload);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(
      `save ${input.workflowId}:${input.version} carries an invalid payload`,
      NON_RETRYABLE_ERRORS.invalidStoredBody,
    );
  }
  return parsed.data;
}

/** The shared checks against the stored rows (the same the API made before sending the update). */
const checkReview = (tx: Tx, input: CommitSaveInput, row: StoredRequest): Promise<AccessWriteCheck> =>
  checkAccessWrite(tx, row.subjectUserId!, reviewPayload(input), {
    keyPrefix: 'userAccesses',
    isAdmin: input.actor.permissions.includes('ADMIN'),
  });

/**
 * The commit's re-check of a review save (REQUEST-LIFECYCLE "checks that need the database ... again inside
 * the commit"): `userAccesses[i]` field errors, a record changed since it was read (STALE_VERSION), unknown
 * portal roles, ADMIN roles without ADMIN, and "no change" (304) against the stored rows. A refusal leaves
 * state and version unchanged.
 */
export async function reviewProblems(tx: Tx, input: CommitSaveInput, row: StoredRequest): Promise<Refusal | null> {
  const check = await checkReview(tx, input, row);
  if (check.adminRoleChange) {
    check.fieldErrors['portalUser.portalRoleIds'] = ['Only an administrator may give or take an ADMIN portal role.'];
  }
  if (Object.keys(check.fieldErrors).length || check.globalErrors.length) {
    return {
      outcome: 'REFUSED',
      failure: REVIEW_FAILURES.invalid,
      fieldErrors: check.fieldErrors,
      globalErrors: check.globalErrors,
    };
  }
  const requestUnchanged =
    input.toStatus === row.status &&
    input.reviewerComments === row.reviewerComments &&
    input.sysaidTicket === row.sysaidTicket;
  if (requestUnchanged && !writesSomething(check)) {
    return { outcome: 'REFUSED', failure: REVIEW_FAILURES.noChanges, fieldErrors: {}, globalErrors: [] };
  }
  return null;
}

/**
 * Writes the reviewer's portal roles and access records (nothing when the payload changes nothing) and one
 * `ACCESS_UPDATED` audit row keyed `<workflowId>:<version>:apply`.
 */
export async function applyReviewedAccess(tx: Tx, input: CommitSaveInput, row: StoredRequest): Promise<void> {
  const check = await checkReview(tx, input, row);
  if (!writesSomething(check)) return;
  const written = await writeAccess(tx, row.subjectUserId!, check, input.actor, input.requestId);
  await auditEffect(tx, input, 'apply', {
    entityType: 'UserAccess',
    entityId: String(row.subjectUserId),
    action: 'ACCESS_UPDATED',
    after: {
      requestId: input.requestId,
      changes: written.changes.map((c) => ({ ...c })),
      ...(written.portalRoles
        ? { portalRolesAdded: written.portalRoles.added, portalRolesRemoved: written.portalRoles.removed }
        : {}),
    },
  });
}
