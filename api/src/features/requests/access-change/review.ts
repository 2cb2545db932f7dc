/**
 * A reviewer's save of an access-change request (000 §7 review_access_change_request; 001 §2.8, §4): sent
 * to the request's workflow as the `review` update, which validates the transition and version and returns
 * only after the projection and audit rows are written (read-your-writes). Failures map to the spec's
 * answers: illegal transition 422 fieldErrors, stale version 422 STALE_VERSION, nothing changed 304.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AccessModRequest, ReviewAccessChangeBody } from '@portal/contract';
import { GLOBAL_ERRORS, isResolved } from '@portal/contract';
import { REVIEW_FAILURES, reviewUpdate } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { type HttpError, forbidden, notFound, notModified, unavailable, unprocessable } from '../../../http/errors';
import { accessModRequestView } from './view';

const STATUS_KEY = 'userAccessModificationRequest.requestStatus';

export async function reviewAccessChange(
  deps: Deps,
  actor: AuthContext,
  body: ReviewAccessChangeBody,
): Promise<AccessModRequest> {
  const r = body.userAccessModificationRequest;
  const row = await deps.prisma.accessModRequest.findUnique({ where: { id: r.id } });
  if (!row) throw notFound('Problem loading user-access modification request(s).');
  if (isResolved(row.requestStatus)) {
    throw unprocessable({ [STATUS_KEY]: [`The request is ${row.requestStatus} and can no longer be changed.`] });
  }
  const handle = deps.temporal.workflow.getHandle(row.workflowId);
  try {
    await handle.executeUpdate(reviewUpdate, {
      args: [
        {
          expectedVersion: r.versionno,
          requestStatus: r.requestStatus,
          reviewerComments: r.reviewerComments,
          sysaidTicket: r.sysaidTicket,
          actor: { userId: actor.userId, username: actor.username, permissions: actor.permissions },
        },
      ],
    });
  } catch (err) {
    throw mapUpdateError(err);
  }
  const fresh = await deps.prisma.accessModRequest.findUniqueOrThrow({
    where: { id: r.id },
    include: { subject: true, requester: true },
  });
  return accessModRequestView(fresh, { uiUrl: deps.cfg.TEMPORAL_UI_URL, namespace: deps.cfg.TEMPORAL_NAMESPACE });
}

function mapUpdateError(err: unknown): HttpError {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const { type, message } = err.cause;
    switch (type) {
      case REVIEW_FAILURES.stale:
      case REVIEW_FAILURES.busy:
        return unprocessable({}, [GLOBAL_ERRORS.staleVersion]);
      case REVIEW_FAILURES.illegal:
        return unprocessable({ [STATUS_KEY]: [message] });
      case REVIEW_FAILURES.noChanges:
        return notModified();
      case REVIEW_FAILURES.forbidden:
        return forbidden();
    }
  }
  if (err instanceof WorkflowNotFoundError) {
    return unprocessable({ [STATUS_KEY]: ['The request is resolved and can no longer be changed.'] });
  }
  return unavailable('Unable to update user-access modification request due to one or more errors.');
}
