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
  patched,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { ApprovalStages } from '../approval/stages';
import { RequestStatusKey, SubjectUserIdKey } from '../search-attributes';
import type { RequestKindDefinition } from './definition';
import { DEFAULT_NOTIFICATION_DEADLINE, mailActivityOptions } from './mail-options';
import { reviewUpdate, stateQuery } from './messages';
import { reviewRejection } from './rules';
import {
  type CommitReading,
  type CommitRefusal,
  type CommitResult,
  type CommitSaveInput,
  type CommittedSave,
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

export { DEFAULT_NOTIFICATION_DEADLINE, mailActivityOptions } from './mail-options';

/**
 * Issue 21 case 1: a commit that failed or timed out is followed by a read of its key, and a commit found
 * written is taken as the workflow's own. Histories recorded before it replay without the read.
 */
export const COMMIT_READS_TRUTH_PATCH = 'commit-reads-truth';

/**
 * Issue 21 cases 2 and 3: outside effects count as run from their start, every approval applies its own choice,
 * and any other save first undoes effects that may have run.
 */
export const OUTSIDE_EFFECTS_UNDO_PATCH = 'outside-effects-undo';

/** Issue 21 case 9: a save that gives the request its subject (an approved registration) sets SubjectUserId. */
export const SUBJECT_USER_ID_PATCH = 'subject-user-id';

/**
 * Approval policies (docs/decisions.md "Approval policies"): a kind with `approvalStages` reads the request's
 * plan first and runs its stages beside the review. Histories recorded before it replay without the read.
 */
export const APPROVAL_STAGES_PATCH = 'approval-stages';

/** Reading a save's key once the database is back: retried without an overall deadline, it only reads. */
const TRUTH_READ_OPTIONS: ActivityOptions = { ...WRITE_ACTIVITY_OPTIONS, scheduleToCloseTimeout: undefined };

const writes = proxyActivities<LifecycleActivities>(WRITE_ACTIVITY_OPTIONS);

export class RequestLifecycle<S extends string> {
  private readonly state: LifecycleState<S>;
  /** A save whose commit failed and whose key could not be read either: its truth is still to be learnt. */
  private unsettled: CommitSaveInput<S> | null = null;
  /** The SubjectUserId search attribute's value: the input's, until a save gives the request its subject. */
  private subjectUserId: number;

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
    this.subjectUserId = input.subjectUserId;
  }

  /** Registers the handlers, waits until the request is resolved, mails, and returns the final state. */
  async run(): Promise<LifecycleState<S>> {
    setHandler(stateQuery, () => this.snapshot());
    setHandler(reviewUpdate, (input) => this.review(input as ReviewInput<S>), {
      validator: (input) => this.reject(input as ReviewInput<S>),
    });
    // A request filed without a plan (approvalStages 0) runs exactly the spec's review: no marker, no read.
    const stages =
      this.def.approvalStages && this.input.approvalStages !== 0 && patched(APPROVAL_STAGES_PATCH)
        ? new ApprovalStages(this, this.input)
        : null;
    // The stages run beside the review; a failure of theirs is logged and leaves the spec's review working.
    const staged = stages
      ? stages.run().catch((err: unknown) => {
          log.error('approval stages stopped', { reason: err instanceof Error ? err.message : String(err) });
        })
      : Promise.resolve();
    const finished = () => this.def.isResolved(this.state.status) && allHandlersFinished();
    // A save left unsettled is read back as soon as no save runs, so a resolving commit whose answer was lost
    // still mails and completes even if nobody saves again.
    while (!finished()) {
      await condition(() => finished() || (this.unsettled !== null && !this.state.busy));
      if (finished()) break;
      try {
        await this.settle();
      } catch (err) {
        // Only a non-retryable failure ends a read without a deadline: try again later, never fail the request.
        log.error('reading back an unsettled save failed', {
          reason: err instanceof Error ? err.message : String(err),
        });
        await sleep('1 minute');
      }
    }
    // After the reviewer's update returned: a slow mail server never delays the review screen. Stage mails still
    // being retried (their stage closed: the next attempt ends at once) never hold the resolution mail back.
    await Promise.all([staged, this.notify()]);
    return this.snapshot();
  }

  /** The state as the `state` query and every update answer it. */
  snapshot(): LifecycleState<S> {
    return { ...this.state, ...(this.state.approval ? { approval: { ...this.state.approval } } : {}) };
  }

  /** The live state, for the approval stages that run beside the review (approval/stages.ts). */
  get current(): LifecycleState<S> {
    return this.state;
  }

  /** True when the request is resolved. */
  resolved(): boolean {
    return this.def.isResolved(this.state.status);
  }

  /**
   * Runs `save` as the one save in flight (the busy flag the review's validator refuses on), after reading back
   * a save left unsettled: the approval stages' decisions follow the review's busy and version rules.
   */
  async exclusive<T>(save: () => Promise<T>): Promise<T> {
    this.state.busy = true;
    try {
      if (this.unsettled) await this.settle(this.writeOptions('read back an unsettled save'));
      return await save();
    } finally {
      this.state.busy = false;
    }
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
      if (this.unsettled) {
        await this.settle(this.writeOptions('read back an unsettled save'));
        this.reject(input);
      }
      await this.save(input);
    } finally {
      this.state.busy = false;
    }
    return this.snapshot();
  }

  /**
   * Reads back the unsettled save's key and takes what the database holds as the state (issue 21 case 1).
   * With `options` (a save waiting) the read has the write deadline; in the background it has none.
   * @throws ApplicationFailure SAVE_FAILED when a save is waiting and the read gave up.
   */
  private async settle(options?: ActivityOptions): Promise<void> {
    const save = this.unsettled;
    if (!save) return;
    const wasBusy = this.state.busy;
    this.state.busy = true;
    try {
      const reading = await this.guard(
        writes.readCommittedSave.executeWithOptions(
          options ?? { ...this.attemptOptions(TRUTH_READ_OPTIONS), summary: `read back save v${save.version}` },
          [save],
        ),
      );
      this.unsettled = null;
      if (reading.outcome === 'COMMITTED') this.adopt(this.committedOf(save));
      if (reading.outcome === 'SUPERSEDED') this.adopt(reading.committed);
    } finally {
      this.state.busy = wasBusy;
    }
  }

  /** The state a committed save leaves. */
  private committedOf(save: CommitSaveInput<S>): CommittedSave {
    return {
      version: save.version,
      status: save.toStatus,
      reviewerComments: save.reviewerComments,
      sysaidTicket: save.sysaidTicket,
      lastModifiedBy: save.actor.username,
    };
  }

  /** Takes a committed save as the workflow's state (and its search attribute). */
  adopt(committed: CommittedSave): void {
    this.state.version = committed.version;
    this.state.status = committed.status as S;
    this.state.reviewerComments = committed.reviewerComments;
    this.state.sysaidTicket = committed.sysaidTicket;
    this.state.lastModifiedBy = committed.lastModifiedBy;
    // An approval is committed only after its outside effects ran (rule 3).
    if (this.state.status === this.def.outsideEffectsOn) this.state.outsideEffectsRan = true;
    upsertSearchAttributes([{ key: RequestStatusKey, value: this.state.status }]);
  }

  /** Outside effects when approving (rule 3), then the one commit (rule 2); a refusal changes nothing. */
  private async save(input: ReviewInput<S>): Promise<void> {
    const { workflowId } = workflowInfo();
    const base = { kind: this.def.kind, requestId: this.state.requestId, workflowId, actor: input.actor };
    const effects = { ...base, payload: input.payload, version: this.state.version + 1 };
    const approving = input.requestStatus === this.def.outsideEffectsOn;
    if (approving && (patched(OUTSIDE_EFFECTS_UNDO_PATCH) || !this.state.outsideEffectsRan)) {
      // Every approval applies its own choice (issue 21 case 3); from its start the effects may have run (case 2).
      const ranBefore = this.state.outsideEffectsRan;
      if (patched(OUTSIDE_EFFECTS_UNDO_PATCH)) this.state.outsideEffectsRan = true;
      const refusal = await this.guard(
        writes.applyOutsideEffects.executeWithOptions(this.writeOptions(`outside effects of ${input.requestStatus}`), [
          effects,
        ]),
      );
      // Refused before anything was written (issue 21 case 4): as a refused commit, nothing changes.
      if (refusal) {
        this.state.outsideEffectsRan = ranBefore;
        throw this.refused(refusal);
      }
      this.state.outsideEffectsRan = true;
    } else if (!approving && this.state.outsideEffectsRan && patched(OUTSIDE_EFFECTS_UNDO_PATCH)) {
      // Effects that may have run are finished by the approval or undone before any other save (issue 21 case 2).
      await this.guard(
        writes.undoOutsideEffects.executeWithOptions(this.writeOptions('undo outside effects'), [effects]),
      );
      this.state.outsideEffectsRan = false;
    }
    const save: CommitSaveInput<S> = {
      ...base,
      version: this.state.version + 1,
      fromStatus: this.state.status,
      toStatus: input.requestStatus,
      reviewerComments: input.reviewerComments,
      sysaidTicket: input.sysaidTicket,
      payload: input.payload,
      // The signature's ticket reference (never the ticket): the commit takes it in the save's transaction.
      ...(input.signature ? { signature: input.signature } : {}),
      ...(input.approvalOverride ? { approvalOverride: input.approvalOverride } : {}),
    };
    const result = await this.commit(save);
    if (result.outcome === 'SUPERSEDED') {
      this.adopt(result.committed);
      throw ApplicationFailure.create({
        type: REVIEW_FAILURES.stale,
        message: `The request changed since it was loaded (version ${result.committed.version}, not ${input.expectedVersion})`,
        nonRetryable: true,
      });
    }
    if (result.outcome === 'REFUSED') throw this.refused(result);
    if ('subjectUserId' in result && typeof result.subjectUserId === 'number') this.noteSubject(result.subjectUserId);
    this.adopt(this.committedOf(save));
  }

  /** The update's failure for a refused save: 422 with the spec's body, or 304. */
  private refused(refusal: CommitRefusal): ApplicationFailure {
    return ApplicationFailure.create({
      type: refusal.failure,
      message: refusal.failure === REVIEW_FAILURES.noChanges ? 'There are no changes to submit.' : 'Invalid save',
      details: [{ fieldErrors: refusal.fieldErrors, globalErrors: refusal.globalErrors }],
      nonRetryable: true,
    });
  }

  /** Ops filter the Temporal UI by SubjectUserId: it follows the subject a save gave the request. */
  private noteSubject(subjectUserId: number): void {
    if (subjectUserId === this.subjectUserId || !patched(SUBJECT_USER_ID_PATCH)) return;
    this.subjectUserId = subjectUserId;
    upsertSearchAttributes([{ key: SubjectUserIdKey, value: subjectUserId }]);
  }

  /**
   * The one commit activity. When it finally fails (a deadline passed, the worker could not report) the
   * attempt may still have committed: the key is read back and its truth answered; when the read fails too,
   * the save stays unsettled (read back before the next save, or in the background) and SAVE_FAILED is told.
   */
  private async commit(save: CommitSaveInput<S>): Promise<CommitResult | CommitReading> {
    const options = this.writeOptions(`save v${save.version}: ${save.fromStatus} → ${save.toStatus}`);
    try {
      return await writes.commitSave.executeWithOptions(options, [save]);
    } catch (err) {
      if (!(err instanceof ActivityFailure) || !patched(COMMIT_READS_TRUTH_PATCH))
        return this.guard(Promise.reject(err));
      log.warn('commit failed; reading its key back', { version: save.version, reason: err.cause?.message });
      try {
        const reading = await writes.readCommittedSave.executeWithOptions(
          this.writeOptions(`read back save v${save.version}`),
          [save],
        );
        if (reading.outcome !== 'NOT_COMMITTED') return reading;
      } catch (readErr) {
        if (!(readErr instanceof ActivityFailure)) throw readErr;
        this.unsettled = save;
      }
      return this.guard(Promise.reject(err));
    }
  }

  /**
   * A database write's options: WRITE_ACTIVITY_OPTIONS, its overall deadline and its attempts' timeout from the
   * input when given (timeouts are options of the scheduled activity, not commands: recorded histories replay).
   */
  writeOptions(summary: string): ActivityOptions {
    const deadline = this.input.writeDeadline;
    return {
      ...this.attemptOptions(WRITE_ACTIVITY_OPTIONS),
      ...(deadline ? { scheduleToCloseTimeout: deadline } : {}),
      summary,
    };
  }

  /** `options` with the input's start-to-close timeout of a write attempt, when given. */
  attemptOptions(options: ActivityOptions): ActivityOptions {
    const attempt = this.input.writeAttemptTimeout;
    return attempt ? { ...options, startToCloseTimeout: attempt } : options;
  }

  /** An activity that finally failed fails the save (the update), never the workflow (SAVE_FAILED). */
  async guard<T>(call: Promise<T>): Promise<T> {
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
