/**
 * The `decideStage` validator (docs/decisions.md "Approval policies"), pure so the workflow's validator, its
 * handler and unit tests share it. Who belongs to the stage's group is read from the database by the API
 * before the update and by the commit; here: never the requester or subject, the version, busy, resolved,
 * the open stage, a comment to reject.
 */
import { REVIEW_FAILURES, type LifecycleInput, type LifecycleState } from '../lifecycle/types';
import type { ReviewRejection } from '../lifecycle/rules';
import { STAGE_NOT_OPEN_FAILURE, type StageDecisionInput } from './types';

/** Why `decision` may not be taken on `state`, or null when it may. */
export function stageRejection(
  state: LifecycleState,
  input: Pick<LifecycleInput, 'requesterUserId' | 'subjectUserId'>,
  decision: StageDecisionInput,
  resolved: boolean,
): ReviewRejection | (Omit<ReviewRejection, 'type'> & { type: typeof STAGE_NOT_OPEN_FAILURE }) | null {
  const actor = decision.actor.userId;
  if (actor === input.requesterUserId || actor === input.subjectUserId) {
    return {
      type: REVIEW_FAILURES.forbidden,
      message: 'Nobody decides a stage of a request they filed or that names them',
    };
  }
  if (decision.expectedVersion !== state.version) {
    return {
      type: REVIEW_FAILURES.stale,
      message: `The request changed since it was loaded (version ${state.version}, not ${decision.expectedVersion})`,
    };
  }
  if (state.busy) return { type: REVIEW_FAILURES.busy, message: 'Another save of this request is being processed' };
  if (resolved) {
    return { type: REVIEW_FAILURES.illegal, message: `The request is ${state.status} and can no longer be changed` };
  }
  if (!state.approval?.stage || state.approval.stage !== decision.stage) {
    return { type: STAGE_NOT_OPEN_FAILURE, message: `Stage ${decision.stage} is not the open stage` };
  }
  if (decision.decision === 'REJECTED' && !decision.comment.trim()) {
    return { type: REVIEW_FAILURES.invalid, message: 'A stage rejection needs a comment' };
  }
  return null;
}
