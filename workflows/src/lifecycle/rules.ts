/**
 * The review validator of every request kind (REQUEST-LIFECYCLE.md: permission, busy flag, version,
 * transition table), pure so the workflow's update validator, its handler and unit tests share it.
 */
import type { RequestKindDefinition } from './definition';
import { STAGES_OPEN_FAILURE } from '../approval/types';
import type { LifecycleState, ReviewFailureType, ReviewInput } from './types';
import { REVIEW_FAILURES } from './types';

export interface ReviewRejection {
  type: ReviewFailureType | typeof STAGES_OPEN_FAILURE;
  message: string;
}

/**
 * Why `input` may not be saved on `state`, or null when it may. Order matters: a stale version is told
 * before "busy" (the running save cannot make a stale save fresh), and "busy" before the transition table
 * (the running save may change what is legal).
 */
export function reviewRejection<S extends string>(
  def: RequestKindDefinition<S>,
  state: LifecycleState<S>,
  input: ReviewInput<S>,
): ReviewRejection | null {
  if (!input.actor.permissions.includes(def.reviewPermission)) {
    return { type: REVIEW_FAILURES.forbidden, message: `${def.reviewPermission} is required to review a request` };
  }
  if (input.expectedVersion !== state.version) {
    return {
      type: REVIEW_FAILURES.stale,
      message: `The request changed since it was loaded (version ${state.version}, not ${input.expectedVersion})`,
    };
  }
  if (state.busy) return { type: REVIEW_FAILURES.busy, message: 'Another save of this request is being processed' };
  if (!def.canTransition(state.status, input.requestStatus)) {
    const why = def.isResolved(state.status) ? 'the request is resolved and locked' : 'that status cannot be chosen';
    return {
      type: REVIEW_FAILURES.illegal,
      message: `A request in ${state.status} cannot be saved as ${input.requestStatus}: ${why}`,
    };
  }
  // Approval policies: approving over open stages takes a written justification (docs/decisions.md).
  if (input.requestStatus === 'APPROVED' && state.approval?.stage && !input.approvalOverride?.trim()) {
    return {
      type: STAGES_OPEN_FAILURE,
      message: `Approval stage ${state.approval.stage} of ${state.approval.stages} is still open`,
    };
  }
  const unchanged =
    input.payload === undefined &&
    input.requestStatus === state.status &&
    input.reviewerComments === state.reviewerComments &&
    input.sysaidTicket === state.sysaidTicket;
  if (unchanged) return { type: REVIEW_FAILURES.noChanges, message: 'There are no changes to submit.' };
  return null;
}
