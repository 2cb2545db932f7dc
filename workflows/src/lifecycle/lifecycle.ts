/**
 * The one review lifecycle every request kind runs on (REQUEST-LIFECYCLE.md). A kind's workflow file
 * builds a `RequestLifecycle` from its definition and calls `run()`:
 * - state: status, version, reviewer comments, ticket, last modified by, outside effects ran, busy;
 * - the `review` update: a pure validator (permission, version, busy, transition table), then a handler that
 *   runs the kind's outside effects when approving (rule 3) and ONE commit activity that writes the kind's
 *   effects, the request row and the audit row together, or refuses with a 422/304 body (rule 2);
 * - the `state` query;
 * - when resolved and every handler finished: the resolution mail with its own activity options; a mail
 *   that is finally given up is audited as MAIL_FAILED and never fails the request (rule 5).
 * Deterministic: no I/O here, only activities.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  type ActivityOptions,
  allHandlersFinished,
  condition,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { RequestStatusKey } from '../search-attributes';
import type { RequestKindDefinition } from './definition';
import { reviewUpdate, stateQuery } from './messages';
import { reviewRejection } from './rules';
import {
  type CommitSaveInput,
  type LifecycleActivities,
  type LifecycleInput,
  type LifecycleState,
  NON_RETRYABLE_ERRORS,
  REVIEW_FAILURES,
  type ReviewInput,
} from './types';

/** Database writes (commit, outside effects, audit): retried while the database is away, never forever. */
export const WRITE_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '15 seconds',
    nonRetryableErrorTypes: Object.values(NON_RETRYABLE_ERRORS),
  },
};

/** The resolution mail: no attempt limit, a long overall deadline (rule 5); SMTP timeouts sit well under 60 s. */
export const mailActivityOptions = (deadline: string): ActivityOptions => ({
  startToCloseTimeout: '60 seconds',
  scheduleToCloseTimeout: deadline,
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    nonRetryableErrorTypes: Object.values(NON_RETRYABLE_ERRORS),
  },
});

export const DEFAULT_NOTIFICATION_DEADLINE = '24 hours';

const writes = proxyActivities<LifecycleActivities>(WRITE_ACTIVITY_OPTIONS);

export class RequestLifecycle<S extends string> {
  private readonly state: LifecycleState<S>;

  constructor(
    private readonly def: RequestKindDefinition<S>,
    private readonly input: LifecycleInput,
  ) {
    this.state = {
      kind: def.kind,
      requestId: input.requestId,
      status: def.initialStatus,
      version: 0,
      reviewerComments: '',
      sysaidTicket: '',
      lastModifiedBy: null,
      outsideEffectsRan: false,
      busy: false,
    };
  }

  /** Registers the handlers, waits until the request is resolved, mails, and returns the final state. */
  async run(): Promise<LifecycleState<S>> {
    setHandler(stateQuery, () => this.snapshot());
    setHandler(reviewUpdate, (input) => this.review(input as ReviewInput<S>), {
      validator: (input) => this.reject(input as ReviewInput<S>),
    });
    await condition(() => this.def.isResolved(this.state.status) && allHandlersFinished());
    // After the reviewer's update returned: a slow mail server never delays the review screen.
    await this.notify();
    return this.snapshot();
  }

  private snapshot(): LifecycleState<S> {
    return { ...this.state };
  }

  private reject(input: ReviewInput<S>): void {
    const rejection = reviewRejection(this.def, this.state, input);
    if (rejection) throw ApplicationFailure.create({ ...rejection, nonRetryable: true });
  }

  private async review(input: ReviewInput<S>): Promise<LifecycleState<S>> {
    // Re-checked: two updates accepted in one workflow task both passed the validator.
    this.reject(input);
    this.state.busy = true;
    try {
      await this.save(input);
    } finally {
      this.state.busy = false;
    }
    return this.snapshot();
  }

  /** Outside effects when approving (rule 3), then the one commit (rule 2); a refusal changes nothing. */
  private async save(input: ReviewInput<S>): Promise<void> {
    const { workflowId } = workflowInfo();
    const base = { kind: this.def.kind, requestId: this.state.requestId, workflowId, actor: input.actor };
    if (input.requestStatus === this.def.outsideEffectsOn && !this.state.outsideEffectsRan) {
      await this.guard(
        writes.applyOutsideEffects.executeWithOptions(this.writeOptions(`outside effects of ${input.requestStatus}`), [
          { ...base, payload: input.payload },
        ]),
      );
      this.state.outsideEffectsRan = true;
    }
    const save: CommitSaveInput<S> = {
      ...base,
      version: this.state.version + 1,
      fromStatus: this.state.status,
      toStatus: input.requestStatus,
      reviewerComments: input.reviewerComments,
      sysaidTicket: input.sysaidTicket,
      payload: input.payload,
    };
    const result = await this.guard(
      writes.commitSave.executeWithOptions(
        this.writeOptions(`save v${save.version}: ${save.fromStatus} → ${save.toStatus}`),
        [save],
      ),
    );
    if (result.outcome === 'REFUSED') {
      throw ApplicationFailure.create({
        type: result.failure,
        message: result.failure === REVIEW_FAILURES.noChanges ? 'There are no changes to submit.' : 'Invalid save',
        details: [{ fieldErrors: result.fieldErrors, globalErrors: result.globalErrors }],
        nonRetryable: true,
      });
    }
    this.state.version = save.version;
    this.state.status = input.requestStatus;
    this.state.reviewerComments = input.reviewerComments;
    this.state.sysaidTicket = input.sysaidTicket;
    this.state.lastModifiedBy = input.actor.username;
    upsertSearchAttributes([{ key: RequestStatusKey, value: this.state.status }]);
  }

  /** A database write's options: WRITE_ACTIVITY_OPTIONS, its overall deadline from the input when given. */
  private writeOptions(summary: string): ActivityOptions {
    const deadline = this.input.writeDeadline;
    return { ...WRITE_ACTIVITY_OPTIONS, ...(deadline ? { scheduleToCloseTimeout: deadline } : {}), summary };
  }

  /** An activity that finally failed fails the save (the update), never the workflow (SAVE_FAILED). */
  private async guard<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (err) {
      if (err instanceof ActivityFailure) {
        const cause = err.cause instanceof ApplicationFailure ? `${err.cause.type}: ${err.cause.message}` : err.message;
        throw ApplicationFailure.create({ type: REVIEW_FAILURES.saveFailed, message: cause, nonRetryable: true });
      }
      throw err;
    }
  }

  private async notify(): Promise<void> {
    const { workflowId } = workflowInfo();
    const mail = { kind: this.def.kind, requestId: this.state.requestId, workflowId };
    const options = mailActivityOptions(this.input.notificationDeadline ?? DEFAULT_NOTIFICATION_DEADLINE);
    try {
      await writes.sendResolutionMail.executeWithOptions({ ...options, summary: 'resolution mail' }, [mail]);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      const reason = err.cause?.message ?? err.message;
      log.warn('resolution mail given up', { workflowId, reason });
      // Bookkeeping of a mail given up: an outage outlasting its deadline loses the MAIL_FAILED row, never the
      // resolved request's workflow (issue 21 case 7).
      try {
        await writes.recordMailFailure.executeWithOptions(this.writeOptions('MAIL_FAILED audit'), [
          { ...mail, reason },
        ]);
      } catch (auditErr) {
        if (!(auditErr instanceof ActivityFailure)) throw auditErr;
        log.error('MAIL_FAILED audit given up', {
          workflowId,
          reason,
          auditReason: auditErr.cause?.message ?? auditErr.message,
        });
      }
    }
  }
}
