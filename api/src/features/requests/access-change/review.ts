/**
 * A reviewer's save of an access-change request (000 §7 review_access_change_request; 001 §2.8, §4), sent
 * through the lifecycle's `reviewRequest`: 200 with the fresh request once the save is committed, 202 when it
 * is still being processed after the deadline (retrying with the same attempt key is safe), 304, 403, 409
 * (another save runs), 422 (stale version, illegal status, resolved request, `userAccesses[i]` field errors).
 *
 * The body's `portalUser.portalRoleIds` and `userAccesses` are the user's portal roles and access as the
 * reviewer left them: checked here against the stored rows (the same `checkAccessWrite` the commit runs
 * again under the user's lock), and sent in the update's payload only when they change something, so the
 * commit writes them with the request row in one transaction (REQUEST-LIFECYCLE rules 2, 7).
 *
 * An APPROVED save while approval stages are open needs `approvalOverride` (docs/decisions.md "Approval
 * policies"): 422 `stagesOpen` without it, checked here from the row and again by the workflow.
 */
import type {
  AccessModRequest,
  AccessReviewPayload,
  FieldErrors,
  ReviewAccessChangeBody,
  ReviewProcessing,
} from '@portal/contract';
import { MESSAGES } from '@portal/contract';
import { type AccessModRequest as RequestRow, checkAccessWrite, writesSomething } from '@portal/db';
import { accessChangeDefinition } from '@portal/workflows';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { forbidden, notFound, notModified, unprocessable } from '../../../http/errors';
import { refuseResolved, sendReview, stagesOpenError } from '../../../shared/review';
import { freshRequestView } from './approval-view';

const STATUS_KEY = 'userAccessModificationRequest.requestStatus';

export async function reviewAccessChange(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  body: ReviewAccessChangeBody,
): Promise<AccessModRequest | ReviewProcessing> {
  const r = body.userAccessModificationRequest;
  const row = await deps.prisma.accessModRequest.findUnique({ where: { id: r.id } });
  if (!row) throw notFound(MESSAGES.access.loadRequestsFailed);
  return sendReview(
    deps,
    {
      def: accessChangeDefinition,
      requestId: r.id,
      attemptKey: body.attemptKey,
      statusKey: STATUS_KEY,
      actor,
      req,
      save: r,
      approvalOverride: body.approvalOverride,
      // The payload is sent only when it writes the person's roles or records (`reviewPayload`).
      changesAccess: (payload) => payload !== undefined,
      // Skipped for the retry of an attempt already made: that save may be what resolved the request.
      checks: async () => {
        refuseResolved(row.requestStatus, STATUS_KEY);
        // Approving past open approval stages needs a justification (docs/decisions.md "Approval policies");
        // the workflow checks it again against its own state.
        if (row.approvalStage !== null && r.requestStatus === 'APPROVED' && !body.approvalOverride) {
          throw stagesOpenError(STATUS_KEY);
        }
        return reviewPayload(deps, actor, body, row);
      },
    },
    async () => freshRequestView(deps, r.id, actor),
  );
}

/**
 * The checks of the body's roles and records that need the stored rows, before the update (the commit makes
 * them again): 422 field errors or STALE_VERSION, 403 for an ADMIN role without ADMIN, 304 when neither the
 * request nor the roles nor the records change. @returns the payload, or undefined when it changes nothing.
 */
async function reviewPayload(
  deps: Deps,
  actor: AuthContext,
  body: ReviewAccessChangeBody,
  row: RequestRow,
): Promise<AccessReviewPayload | undefined> {
  const errors: FieldErrors = {};
  if (body.portalUser && body.portalUser.id !== row.subjectUserId) errors['portalUser.id'] = ['invalid'];
  body.userAccesses?.forEach((a, i) => {
    if (a.portalUserId !== undefined && a.portalUserId !== row.subjectUserId) {
      errors[`userAccesses[${i}].portalUserId`] = ['invalid'];
    }
  });
  if (Object.keys(errors).length) throw unprocessable(errors);
  const want: AccessReviewPayload = {
    ...(body.portalUser ? { portalRoleIds: body.portalUser.portalRoleIds } : {}),
    ...(body.userAccesses ? { userAccesses: body.userAccesses } : {}),
  };
  const check = await checkAccessWrite(deps.prisma, row.subjectUserId, want, {
    keyPrefix: 'userAccesses',
    isAdmin: actor.permissions.includes('ADMIN'),
  });
  if (check.adminRoleChange) throw forbidden();
  if (Object.keys(check.fieldErrors).length || check.globalErrors.length) {
    throw unprocessable(check.fieldErrors, check.globalErrors);
  }
  const r = body.userAccessModificationRequest;
  const requestUnchanged =
    r.requestStatus === row.requestStatus &&
    r.reviewerComments === row.reviewerComments &&
    r.sysaidTicket === row.sysaidTicket;
  if (!writesSomething(check)) {
    // Only a save of the current version can be "no changes": a save of an older one is either the retry of
    // an attempt that already ran (its update id is known: the workflow answers its result) or stale (422).
    if (requestUnchanged && r.versionno === row.versionno) throw notModified();
    return undefined;
  }
  return want;
}
