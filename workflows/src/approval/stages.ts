/**
 * An access-change request's approval stages, run beside the spec's review by the request's lifecycle
 * (docs/decisions.md "Approval policies"). Each stage is a durable wait raced against its reminder and its
 * deadline: `condition(decided, until)`; a reminder mails the stage's approvers, the deadline hands the stage
 * to its escalation group and mails them. A stage decision is the `decideStage` update, with the review's busy
 * and version rules: one commit activity writes the decision, the request row, the audit row and the next
 * stage together (REQUEST-LIFECYCLE rule 2). A rejection resolves the request as REJECTED (the resolution mail
 * tells the requester the reason). Mails never hold a stage back and never fail the request (rule 5).
 * Deterministic: no I/O here, only activities.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  type ActivityOptions,
  condition,
  log,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RequestLifecycle } from '../lifecycle/lifecycle';
import { DEFAULT_NOTIFICATION_DEADLINE, mailActivityOptions } from '../lifecycle/mail-options';
import { type LifecycleInput, REVIEW_FAILURES } from '../lifecycle/types';
import { ApprovalStageKey } from '../search-attributes';
import { decideStageUpdate } from './messages';
import { stageRejection } from './rules';
import type { ApprovalActivities, ApprovalState, OpenedStage, StageDecisionInput, StageMailReason } from './types';

const mails = (deadline: string) => proxyActivities<ApprovalActivities>(mailActivityOptions(deadline));

/** Milliseconds from now until `iso` (at least 1: a passed instant fires at once). */
const until = (iso: string): number => Math.max(1, Date.parse(iso) - Date.now());

export class ApprovalStages {
  private readonly acts = proxyActivities<ApprovalActivities>({ startToCloseTimeout: '30 seconds' });
  /** The stage the last approval opened, taken by the loop when it wakes. */
  private next: OpenedStage | null = null;
  private readonly mailing: Promise<void>[] = [];

  constructor(
    private readonly host: RequestLifecycle<string>,
    private readonly input: LifecycleInput,
  ) {
    setHandler(decideStageUpdate, (decision) => this.decide(decision), {
      validator: (decision) => this.refuse(decision),
    });
  }

  private get approval(): ApprovalState | undefined {
    return this.host.current.approval;
  }

  /** Reads the plan, opens stage 1, and runs each stage until it is decided or the request resolved. */
  async run(): Promise<void> {
    const { requestId } = this.input;
    const plan = await this.acts.loadApprovalPlan.executeWithOptions(this.readOptions('approval plan'), [
      { requestId },
    ]);
    if (plan.stages === 0) return;
    this.host.current.approval = {
      stages: plan.stages,
      stage: null,
      group: null,
      remindAt: null,
      deadlineAt: null,
      escalated: false,
    };
    let opened: OpenedStage | null = await this.acts.openApprovalStage.executeWithOptions(
      this.readOptions('open stage 1'),
      [this.stageInput(1)],
    );
    while (opened && !this.host.resolved()) {
      const stage = opened.stage;
      this.show(opened);
      this.mail(stage, opened.escalated ? 'ESCALATED' : 'OPENED');
      const moved = () => this.host.resolved() || this.approval?.stage !== stage;
      if (!opened.escalated) {
        if (opened.remindAt && !(await condition(moved, until(opened.remindAt)))) {
          await this.acts.recordStageReminder.executeWithOptions(this.readOptions(`stage ${stage} reminder`), [
            this.stageInput(stage),
          ]);
          this.mail(stage, 'REMINDER');
        }
        if (!moved() && !(await condition(moved, until(opened.deadlineAt)))) {
          const escalated = await this.acts.escalateApprovalStage.executeWithOptions(
            this.readOptions(`stage ${stage} escalation`),
            [this.stageInput(stage)],
          );
          if (!moved()) {
            this.show(escalated);
            this.mail(stage, 'ESCALATED');
          }
        }
      }
      await condition(moved);
      opened = this.host.resolved() ? null : this.next;
      this.next = null;
    }
    await Promise.all(this.mailing);
  }

  /** Shows `opened` as the open stage (state and the ApprovalStage search attribute); null: none open. */
  private show(opened: OpenedStage | null): void {
    const approval = this.approval;
    if (!approval) return;
    approval.stage = opened?.stage ?? null;
    approval.group = opened?.group ?? null;
    approval.remindAt = opened?.remindAt ?? null;
    approval.deadlineAt = opened?.deadlineAt ?? null;
    approval.escalated = opened?.escalated ?? false;
    upsertSearchAttributes([{ key: ApprovalStageKey, value: opened ? `${opened.stage}:${opened.group}` : null }]);
  }

  /** Throws the validator's refusal; `running`: this decision itself holds the busy flag (the handler's re-check). */
  private refuse(decision: StageDecisionInput, running = false): void {
    const state = running ? { ...this.host.current, busy: false } : this.host.current;
    const rejection = stageRejection(state, this.input, decision, this.host.resolved());
    if (rejection) throw ApplicationFailure.create({ ...rejection, nonRetryable: true });
  }

  /** The `decideStage` update: the one commit, then the next stage (or the rejection) as the state. */
  private async decide(decision: StageDecisionInput) {
    this.refuse(decision);
    return this.host.exclusive(async () => {
      // Re-checked: a save read back, or two updates accepted in one workflow task, may have changed the state.
      this.refuse(decision, true);
      const state = this.host.current;
      const approval = this.approval!;
      const version = state.version + 1;
      const nextStage =
        decision.decision === 'APPROVED' && decision.stage < approval.stages ? decision.stage + 1 : null;
      const verb = decision.decision === 'APPROVED' ? 'approved' : 'rejected';
      const result = await this.host.guard(
        this.acts.commitStageDecision.executeWithOptions(this.host.writeOptions(`stage ${decision.stage} ${verb}`), [
          {
            ...this.stageInput(decision.stage),
            version,
            decision: decision.decision,
            comment: decision.comment,
            actor: decision.actor,
            nextStage,
            ...(decision.signature ? { signature: decision.signature } : {}),
          },
        ]),
      );
      if (result.outcome === 'SUPERSEDED') {
        this.host.adopt(result.committed);
        throw ApplicationFailure.create({
          type: REVIEW_FAILURES.stale,
          message: `The request changed since it was loaded (version ${result.committed.version}, not ${decision.expectedVersion})`,
          nonRetryable: true,
        });
      }
      if (result.outcome === 'REFUSED') {
        throw ApplicationFailure.create({
          type: REVIEW_FAILURES.invalid,
          message: 'Invalid stage decision',
          details: [{ fieldErrors: result.fieldErrors, globalErrors: result.globalErrors }],
          nonRetryable: true,
        });
      }
      this.host.adopt({
        version,
        status: result.status,
        reviewerComments: result.reviewerComments,
        sysaidTicket: state.sysaidTicket,
        lastModifiedBy: decision.actor.username,
      });
      this.next = result.next;
      this.show(this.host.resolved() ? null : result.next);
      return this.host.snapshot();
    });
  }

  private stageInput(stage: number) {
    const { workflowId } = workflowInfo();
    const dayMs = this.input.approvalDayMs;
    return { requestId: this.input.requestId, workflowId, stage, ...(dayMs ? { dayMs } : {}) };
  }

  /** A stage's bookkeeping: the write options without an overall deadline (it only waits for the database). */
  private readOptions(summary: string): ActivityOptions {
    return { ...this.host.writeOptions(summary), scheduleToCloseTimeout: undefined };
  }

  /** Mails who may decide `stage` now, in the background; a mail finally given up is logged, never thrown. */
  private mail(stage: number, reason: StageMailReason): void {
    const deadline = this.input.notificationDeadline ?? DEFAULT_NOTIFICATION_DEADLINE;
    const sent = mails(deadline)
      .sendStageMail.executeWithOptions(
        { ...mailActivityOptions(deadline), summary: `stage ${stage} mail: ${reason}` },
        [{ ...this.stageInput(stage), reason }],
      )
      .catch((err: unknown) => {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('stage mail given up', { stage, reason, cause: err.cause?.message ?? err.message });
      });
    this.mailing.push(sent);
  }
}
