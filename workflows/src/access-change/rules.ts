/**
 * The review rules of an access-change request (001 §4 Request statuses, 001 §6 WRITE_USERS), kept pure so
 * the workflow's update validator and unit tests share them.
 */
import { canTransition, isResolved } from '@portal/contract/statuses';
import type { AccessChangeState, ReviewInput } from './types';
import { REVIEW_FAILURES } from './types';

export interface ReviewRejection {
  type: (typeof REVIEW_FAILURES)[keyof typeof REVIEW_FAILURES];
  message: string;
}

/** Returns why a review may not be applied to `state`, or null when it may. */
export function reviewRejection(state: AccessChangeState, input: ReviewInput, busy: boolean): ReviewRejection | null {
  if (!input.actor.permissions.includes('WRITE_USERS')) {
    return { type: REVIEW_FAILURES.forbidden, message: 'WRITE_USERS is required to review a request' };
  }
  if (busy) return { type: REVIEW_FAILURES.busy, message: 'Another review of this request is being saved' };
  if (input.expectedVersion !== state.version) {
    return {
      type: REVIEW_FAILURES.stale,
      message: `The request changed since it was loaded (version ${state.version}, not ${input.expectedVersion})`,
    };
  }
  if (!canTransition(state.status, input.requestStatus)) {
    const why = isResolved(state.status) ? 'the request is resolved and locked' : 'that status cannot be chosen';
    return {
      type: REVIEW_FAILURES.illegal,
      message: `A request in ${state.status} cannot be saved as ${input.requestStatus}: ${why}`,
    };
  }
  const unchanged =
    input.requestStatus === state.status &&
    input.reviewerComments === state.reviewerComments &&
    input.sysaidTicket === state.sysaidTicket;
  if (unchanged) return { type: REVIEW_FAILURES.noChanges, message: 'There are no changes to submit.' };
  return null;
}
