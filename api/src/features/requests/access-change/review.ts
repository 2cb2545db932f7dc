/**
 * A reviewer's save of an access-change request (000 §7 review_access_change_request; 001 §2.8, §4), sent
 * through the lifecycle's `reviewRequest`: 200 with the fresh request once the save is committed, 202 when it
 * is still being processed after the deadline (retrying with the same attempt key is safe), 304, 403, 409
 * (another save runs), 422 (stale version, illegal status, resolved request).
 */
import type { AccessModRequest, ReviewAccessChangeBody, ReviewProcessing } from '@portal/contract';
import { MESSAGES, isResolved } from '@portal/contract';
import { accessChangeDefinition } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, unprocessable } from '../../../http/errors';
import { reviewRequest } from '../../../shared/lifecycle-client';
import { accessModRequestView } from './view';

const STATUS_KEY = 'userAccessModificationRequest.requestStatus';

export async function reviewAccessChange(
  deps: Deps,
  actor: AuthContext,
  body: ReviewAccessChangeBody,
): Promise<AccessModRequest | ReviewProcessing> {
  const r = body.userAccessModificationRequest;
  const row = await deps.prisma.accessModRequest.findUnique({ where: { id: r.id } });
  if (!row) throw notFound(MESSAGES.access.loadRequestsFailed);
  if (isResolved(row.requestStatus)) {
    throw unprocessable({ [STATUS_KEY]: [`The request is ${row.requestStatus} and can no longer be changed.`] });
  }
  const answer = await reviewRequest(deps, {
    def: accessChangeDefinition,
    requestId: r.id,
    attemptKey: body.attemptKey,
    statusKey: STATUS_KEY,
    input: {
      expectedVersion: r.versionno,
      requestStatus: r.requestStatus,
      reviewerComments: r.reviewerComments,
      sysaidTicket: r.sysaidTicket,
      actor: { userId: actor.userId, username: actor.username, permissions: actor.permissions },
    },
  });
  if (answer.outcome === 'PROCESSING') return { status: 'PROCESSING', message: MESSAGES.access.reviewProcessing };
  const fresh = await deps.prisma.accessModRequest.findUniqueOrThrow({
    where: { id: r.id },
    include: { subject: true, requester: true },
  });
  return accessModRequestView(fresh, { uiUrl: deps.cfg.TEMPORAL_UI_URL, namespace: deps.cfg.TEMPORAL_NAMESPACE });
}
