/**
 * The API side of a reviewer's save, used by every request kind (REQUEST-LIFECYCLE.md; filing is filing.ts):
 * - `reviewRequest` (rule 6): send the `review` update with an id made of request id, version and the
 *   browser's attempt key; wait for acceptance and result together for at most REVIEW_DEADLINE_MS; past it
 *   answer 'PROCESSING' (202). Refusals map to the spec's answers; "busy" (409) and "stale" (422) differ. A
 *   retry of the same attempt is answered its outcome before the API's own checks (issue 21 case 5).
 * - `sendLifecycleUpdate`: the same machinery for any update of the lifecycle (the review, an approval stage's
 *   `decideStage`: docs/decisions.md "Approval policies"), which names its definition, id prefix and argument.
 */
import { randomUUID } from 'node:crypto';
import {
  type WorkflowHandle,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
} from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import {
  APPROVAL_TEXTS,
  type FieldErrors,
  GLOBAL_ERRORS,
  MESSAGES,
  type RequestStatus,
  type ReviewProcessing,
  type SignatureRef,
  isResolved,
  requestSignatureActions,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import {
  type LifecycleState,
  REVIEW_FAILURES,
  STAGES_OPEN_FAILURE,
  STAGE_NOT_OPEN_FAILURE,
  commitKey,
  type RequestKindDefinition,
  type ReviewInput,
  reviewUpdate,
  workflowIdOf,
} from '@portal/workflows';
import type { AuthContext } from '../auth/guard';
import { signatureFor } from '../auth/signature-guard';
import type { Deps } from '../deps';
import { type HttpError, conflict, forbidden, notModified, unavailable, unprocessable } from '../http/errors';

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface ReviewRequestOptions {
  def: RequestKindDefinition;
  requestId: number;
  input: ReviewInput;
  /** The browser's attempt key; a new one is made when absent (the save then cannot be joined by a retry). */
  attemptKey?: string;
  /** The fieldErrors key of the status, for an illegal transition. */
  statusKey: string;
  /**
   * The API's own checks before the update (resolved, uniqueness, "no changes"), throwing their HttpError;
   * run only when the attempt is not one already made. @returns the update's payload (else `input.payload`).
   */
  checks?: () => Promise<unknown>;
  /**
   * The save's electronic signature check (docs/decisions.md "Electronic signatures"), after `checks` with the
   * payload they answered: run only for a new attempt (a retry of an attempt already made is answered its
   * outcome, its ticket already used). @returns the ticket's reference, undefined when the save is not signed.
   * @throws HttpError 422 SIGNATURE_REQUIRED / SIGNATURE_INVALID.
   */
  sign?: (payload: unknown) => Promise<SignatureRef | undefined>;
}

/** A reviewer's save as a request kind's route receives it: what `sendReview` sends. */
export interface ReviewerSave extends Omit<ReviewRequestOptions, 'input' | 'sign'> {
  actor: AuthContext;
  /** The reviewer's call: its SIGNATURE_HEADER and body are what a signed save is checked against. */
  req: FastifyRequest;
  save: { versionno: number; requestStatus: string; reviewerComments: string; sysaidTicket: string };
  /** ReviewInput.approvalOverride (docs/decisions.md "Approval policies"); sent only when not empty. */
  approvalOverride?: string;
  /**
   * Whether the save, with the payload `checks` answered, changes the person's access or portal roles without
   * resolving the request (then it is signed as REQUEST_SAVE); absent: only a resolution changes access.
   */
  changesAccess?: (payload: unknown) => boolean;
}

/**
 * Sends a reviewer's save (`reviewRequest`) and answers as every request kind's review route does: once the
 * save is done, the fresh request `load` reads; past the deadline, the PROCESSING answer (202).
 */
export async function sendReview<T>(
  deps: Deps,
  { actor, req, save, changesAccess, approvalOverride, ...opts }: ReviewerSave,
  load: () => Promise<T>,
): Promise<T | ReviewProcessing> {
  const answer = await reviewRequest(deps, {
    ...opts,
    sign: (payload) =>
      signatureFor(deps, req, actor, requestSignatureActions(save.requestStatus, changesAccess?.(payload) ?? false)),
    input: {
      expectedVersion: save.versionno,
      requestStatus: save.requestStatus,
      reviewerComments: save.reviewerComments,
      sysaidTicket: save.sysaidTicket,
      actor: { userId: actor.userId, username: actor.username, permissions: actor.permissions },
      ...(approvalOverride ? { approvalOverride } : {}),
    },
  });
  if (answer.outcome === 'PROCESSING') return { status: 'PROCESSING', message: MESSAGES.access.reviewProcessing };
  return load();
}

/** @throws HttpError 422 under `statusKey` when `status` is resolved: the request can no longer be changed. */
export function refuseResolved(status: RequestStatus, statusKey: string): void {
  if (isResolved(status))
    throw unprocessable({ [statusKey]: [`The request is ${status} and can no longer be changed.`] });
}

/**
 * The 422 of an APPROVED save while approval stages are open without an override justification
 * (docs/decisions.md "Approval policies"): the API's own check and the workflow's APPROVAL_STAGES_OPEN alike.
 */
export const stagesOpenError = (statusKey: string): HttpError =>
  unprocessable({ [statusKey]: ['stagesOpen'] }, [APPROVAL_TEXTS.stagesOpen]);

/** `state` is absent when the outcome was read from the database's key (the workflow is gone). */
export type ReviewOutcome = { outcome: 'DONE'; state?: LifecycleState } | { outcome: 'PROCESSING' };

/** The update id of one save attempt: the same attempt retried joins the first; another attempt never does. */
export const reviewUpdateId = (requestId: number, version: number, attemptKey: string): string =>
  updateIdOf('review', requestId, version, attemptKey);

/** The update id of one attempt of an update named `prefix` (review, stage). */
const updateIdOf = (prefix: string, requestId: number, version: number, attemptKey: string): string =>
  `${prefix}-${requestId}-v${version}-${attemptKey}`;

/**
 * One update of a request's lifecycle sent with the save machinery (rule 6; docs/decisions.md "Approval
 * policies"): the update's definition and id prefix, the version it is made at, who sends it, and its argument.
 */
export interface LifecycleUpdateOptions<A> {
  def: RequestKindDefinition;
  requestId: number;
  update: UpdateDefinition<LifecycleState, [A]>;
  /** The update id's prefix (`<prefix>-<requestId>-v<version>-<attemptKey>`). */
  prefix: string;
  expectedVersion: number;
  attemptKey?: string;
  /** The fieldErrors key of the status, for an illegal transition. */
  statusKey: string;
  /** As ReviewRequestOptions.checks: the API's own checks, for a new attempt only. @returns the payload. */
  checks?: () => Promise<unknown>;
  /** As ReviewRequestOptions.sign. */
  sign?: (payload: unknown) => Promise<SignatureRef | undefined>;
  /** The update's argument, from the payload `checks` answered and the signature. */
  argsOf: (payload: unknown, signature: SignatureRef | undefined) => A;
  /**
   * Whether the commit's audit row of version `expectedVersion + 1`, by `actorUserId`, records this same
   * update (its `after`): how a retry is answered once the workflow is gone past the namespace's retention.
   */
  actorUserId: number;
  sameCommit: (after: Record<string, unknown>) => boolean;
}

/**
 * Sends one reviewer's save (rule 6). A retry of an attempt already made (same attempt key and version) is
 * answered that attempt's outcome before `checks` run, so the checks never refuse the save that is in flight or
 * done (issue 21 case 5): its update's result while Temporal keeps the workflow (open or closed), past the
 * namespace's retention the commit's audit key `<workflowId>:<version>` with the same save in it.
 * @throws HttpError 304 (no changes), 403, 409 (another save runs), 422 (stale, illegal, refused by the
 *   commit or by `checks`), 503 (the save failed or Temporal is unreachable).
 */
export async function reviewRequest(deps: Deps, opts: ReviewRequestOptions): Promise<ReviewOutcome> {
  const { input } = opts;
  return sendLifecycleUpdate(deps, {
    ...opts,
    update: reviewUpdate,
    prefix: 'review',
    expectedVersion: input.expectedVersion,
    checks: opts.checks ?? (async () => input.payload),
    argsOf: (payload, signature) => ({ ...input, payload, ...(signature ? { signature } : {}) }),
    actorUserId: input.actor.userId,
    sameCommit: (after) =>
      after.requestStatus === input.requestStatus &&
      after.reviewerComments === input.reviewerComments &&
      after.sysaidTicket === input.sysaidTicket,
  });
}

/**
 * Sends one update of the request's lifecycle as `reviewRequest` sends the review (see there): the earlier
 * attempt's outcome first, then `checks`, `sign`, and the update within REVIEW_DEADLINE_MS (PROCESSING past it).
 * @throws HttpError as reviewRequest, and 422 for the approval stages' refusals (stages open, stage not open).
 */
export async function sendLifecycleUpdate<A>(deps: Deps, opts: LifecycleUpdateOptions<A>): Promise<ReviewOutcome> {
  const handle = deps.temporal.workflow.getHandle(workflowIdOf(opts.def, opts.requestId));
  const earlier = opts.attemptKey ? await earlierAttempt(deps, handle, opts, opts.attemptKey) : undefined;
  if (earlier) return earlier;
  const payload = opts.checks ? await opts.checks() : undefined;
  const signature = opts.sign ? await opts.sign(payload) : undefined;
  const updateId = updateIdOf(opts.prefix, opts.requestId, opts.expectedVersion, opts.attemptKey ?? randomUUID());
  const sent = await withinReviewDeadline(deps, async () => {
    const update = await handle.startUpdate(opts.update, {
      args: [opts.argsOf(payload, signature)],
      updateId,
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    return update.result();
  }).catch((err: unknown) => {
    throw mapUpdateError(err, opts.statusKey);
  });
  return outcomeOf(sent);
}

const outcomeOf = (answer: { value: LifecycleState } | 'PROCESSING'): ReviewOutcome =>
  answer === 'PROCESSING' ? { outcome: 'PROCESSING' } : { outcome: 'DONE', state: answer.value };

/**
 * Runs `call` for at most REVIEW_DEADLINE_MS. @returns its value, or PROCESSING past the deadline.
 * @throws what `call` throws before the deadline.
 */
async function withinReviewDeadline<T>(deps: Deps, call: () => Promise<T>): Promise<{ value: T } | 'PROCESSING'> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deps.cfg.REVIEW_DEADLINE_MS);
  try {
    return { value: await deps.temporal.withAbortSignal(deadline.signal, call) };
  } catch (err) {
    if (deadline.signal.aborted) return 'PROCESSING';
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The outcome of the attempt `attemptKey` of this update if it was made: its update's result (PROCESSING while
 * it still runs past the deadline; its refusal as an HttpError), or, once the workflow is gone, the database's
 * record of the same update. @returns undefined for an attempt never made (it gets the checks and is sent).
 */
async function earlierAttempt<A>(
  deps: Deps,
  handle: WorkflowHandle,
  opts: LifecycleUpdateOptions<A>,
  attemptKey: string,
): Promise<ReviewOutcome | undefined> {
  const updateId = updateIdOf(opts.prefix, opts.requestId, opts.expectedVersion, attemptKey);
  try {
    return outcomeOf(await withinReviewDeadline(deps, () => handle.getUpdateHandle<LifecycleState>(updateId).result()));
  } catch (err) {
    // NOT_FOUND names an update the workflow never received (a new attempt) or a workflow that is gone.
    if (!(err instanceof WorkflowNotFoundError)) throw mapUpdateError(err, opts.statusKey);
  }
  if (await workflowExists(handle, opts.statusKey)) return undefined;
  return (await committedInDatabase(deps, opts)) ? { outcome: 'DONE' } : undefined;
}

async function workflowExists(handle: WorkflowHandle, statusKey: string): Promise<boolean> {
  try {
    await handle.describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw mapUpdateError(err, statusKey);
  }
}

/**
 * Whether the commit's audit row of this update exists (key `<workflowId>:<expectedVersion + 1>`, written in
 * the transaction of the request row) and records the same update (`sameCommit`, by the same person). The
 * attempt key is not stored, so past the retention an equal update of another attempt is answered alike.
 */
async function committedInDatabase<A>(deps: Deps, opts: LifecycleUpdateOptions<A>): Promise<boolean> {
  const key = commitKey(workflowIdOf(opts.def, opts.requestId), opts.expectedVersion + 1);
  let done;
  try {
    done = await deps.prisma.auditEvent.findUnique({ where: { idempotencyKey: key } });
  } catch (err) {
    console.error(`review: reading the audit key ${key} failed: ${describe(err)}`);
    throw unavailable(MESSAGES.access.reviewFailed);
  }
  return done?.actorUserId === opts.actorUserId && opts.sameCommit((done.after ?? {}) as Record<string, unknown>);
}

function mapUpdateError(err: unknown, statusKey: string): HttpError {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const { type, message, details } = err.cause;
    switch (type) {
      case REVIEW_FAILURES.stale:
        return unprocessable({}, [GLOBAL_ERRORS.staleVersion]);
      case REVIEW_FAILURES.busy:
        return conflict([GLOBAL_ERRORS.reviewBusy], MESSAGES.access.reviewBusy);
      case REVIEW_FAILURES.illegal:
        return unprocessable({ [statusKey]: [message] });
      case REVIEW_FAILURES.noChanges:
        return notModified();
      case REVIEW_FAILURES.invalid: {
        const body = (details?.[0] ?? {}) as { fieldErrors?: FieldErrors; globalErrors?: string[] };
        return unprocessable(body.fieldErrors ?? {}, body.globalErrors ?? []);
      }
      case REVIEW_FAILURES.forbidden:
        return forbidden();
      case STAGES_OPEN_FAILURE:
        return stagesOpenError(statusKey);
      case STAGE_NOT_OPEN_FAILURE:
        return unprocessable({ stage: ['notOpen'] }, [APPROVAL_TEXTS.stageDecided]);
    }
  }
  if (err instanceof WorkflowNotFoundError) {
    return unprocessable({ [statusKey]: ['The request is resolved and can no longer be changed.'] });
  }
  return unavailable(MESSAGES.access.reviewFailed);
}
