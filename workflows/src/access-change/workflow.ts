/**
 * The access-change request workflow (`access-change-<id>`, 001 §4): the request's state machine. It starts
 * NEW; reviewers move it with the `review` update until it is APPROVED or REJECTED; on APPROVED an activity
 * applies the requested access to the subject's access records. Search attributes are upserted on every
 * transition. Deterministic: no I/O here, only activities.
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { isResolved } from '@portal/contract/statuses';
import { RequestStatusKey, RequestTypeKey, RequesterUserIdKey, SubjectUserIdKey } from '../search-attributes';
import { reviewUpdate, stateQuery } from './messages';
import { reviewRejection } from './rules';
import type { AccessChangeActivities, AccessChangeInput, AccessChangeState, ReviewInput } from './types';

const { projectTransition, applyApprovedAccess, sendResolutionMail } = proxyActivities<AccessChangeActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

export async function accessChangeWorkflow(input: AccessChangeInput): Promise<AccessChangeState> {
  const state: AccessChangeState = {
    requestId: input.requestId,
    requestType: input.requestType,
    status: 'NEW',
    version: 0,
    reviewerComments: '',
    sysaidTicket: '',
    lastModifiedBy: null,
    accessApplied: false,
  };
  let busy = false;
  const snapshot = (): AccessChangeState => ({ ...state });

  upsertSearchAttributes([
    { key: RequestTypeKey, value: 'ACCESS_CHANGE' },
    { key: RequestStatusKey, value: state.status },
    { key: SubjectUserIdKey, value: input.subjectUserId },
    { key: RequesterUserIdKey, value: input.requesterUserId },
  ]);

  setHandler(stateQuery, snapshot);

  setHandler(
    reviewUpdate,
    async (review: ReviewInput) => {
      // Re-checked here: two updates accepted in one workflow task both passed the validator.
      const rejection = reviewRejection(state, review, busy);
      if (rejection)
        throw ApplicationFailure.create({ type: rejection.type, message: rejection.message, nonRetryable: true });
      busy = true;
      try {
        const workflowId = workflowInfo().workflowId;
        const version = state.version + 1;
        if (review.requestStatus === 'APPROVED' && !state.accessApplied) {
          await applyApprovedAccess({ requestId: state.requestId, workflowId, actor: review.actor });
          state.accessApplied = true;
        }
        await projectTransition({
          requestId: state.requestId,
          workflowId,
          version,
          fromStatus: state.status,
          toStatus: review.requestStatus,
          reviewerComments: review.reviewerComments,
          sysaidTicket: review.sysaidTicket,
          actor: review.actor,
        });
        state.version = version;
        state.status = review.requestStatus;
        state.reviewerComments = review.reviewerComments;
        state.sysaidTicket = review.sysaidTicket;
        state.lastModifiedBy = review.actor.username;
        upsertSearchAttributes([{ key: RequestStatusKey, value: state.status }]);
        return snapshot();
      } finally {
        busy = false;
      }
    },
    {
      validator: (review: ReviewInput) => {
        const rejection = reviewRejection(state, review, busy);
        if (rejection)
          throw ApplicationFailure.create({ type: rejection.type, message: rejection.message, nonRetryable: true });
      },
    },
  );

  await condition(() => isResolved(state.status) && allHandlersFinished());
  // After the reviewer's update has returned: a slow mail server never delays the review screen.
  await sendResolutionMail({ requestId: state.requestId, workflowId: workflowInfo().workflowId });
  return snapshot();
}
