/**
 * A stage approver's decision of an access-change request's open approval stage (docs/decisions.md "Approval
 * policies"; POST /rest/secure/user_access_mod_request/{id}/stage): sent as the workflow's `decideStage` update
 * with the review's machinery (`sendLifecycleUpdate`: attempt keys, REVIEW_DEADLINE_MS, busy/stale answers):
 * 200 with the fresh request, 202 while still processing, 403 for a caller who may not decide the open stage
 * (or when none is open), 404, 409 (another save runs), 422 (stale version, a stage that is not the open one),
 * 503. With SIGNATURES=on the decision is signed REQUEST_STAGE_APPROVAL or REQUEST_STAGE_REJECTION with the
 * meaning of its stage ('Approved – stage n' / 'Rejected – stage n', `stageSignatureMeaning`; a ticket meaning
 * another stage is SIGNATURE_INVALID), the ticket bound to this call; the stage commit takes it.
 */
import {
  APPROVAL_TEXTS,
  type AccessModRequest,
  MESSAGES,
  type ReviewProcessing,
  type StageDecisionBody,
  stageSignatureAction,
  stageSignatureMeaning,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import { type StageDecisionInput, accessChangeDefinition, decideStageUpdate } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import { signatureFor } from '../../../auth/signature-guard';
import type { Deps } from '../../../deps';
import { forbidden, notFound, unprocessable } from '../../../http/errors';
import { sendLifecycleUpdate } from '../../../shared/review';
import { freshRequestView, mayDecideOpenStage } from './approval-view';

/**
 * Sends the decision `body` of request `requestId`'s open stage by `actor` (see the module). The checks (who
 * may decide, which stage is open) run for a new attempt only: a retried attempt is answered its outcome.
 * @throws HttpError 403, 404, 409, 422, 503.
 */
export async function decideRequestStage(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  requestId: number,
  body: StageDecisionBody,
): Promise<AccessModRequest | ReviewProcessing> {
  const row = await deps.prisma.accessModRequest.findUnique({ where: { id: requestId } });
  if (!row) throw notFound(MESSAGES.access.loadRequestsFailed);
  const reviewer = { userId: actor.userId, username: actor.username, permissions: actor.permissions };
  const answer = await sendLifecycleUpdate<StageDecisionInput>(deps, {
    def: accessChangeDefinition,
    requestId,
    update: decideStageUpdate,
    prefix: 'stage',
    expectedVersion: body.versionno,
    attemptKey: body.attemptKey,
    statusKey: 'stage',
    checks: async () => {
      if (!(await mayDecideOpenStage(deps, row, actor))) throw forbidden(APPROVAL_TEXTS.notYourStage);
      if (row.approvalStage !== body.stage) {
        throw unprocessable({ stage: ['notOpen'] }, [APPROVAL_TEXTS.stageDecided]);
      }
    },
    sign: () =>
      signatureFor(deps, req, actor, [stageSignatureAction(body.decision)], {
        meaning: stageSignatureMeaning(body.decision, body.stage),
      }),
    argsOf: (_payload, signature) => ({
      stage: body.stage,
      decision: body.decision,
      comment: body.comment,
      expectedVersion: body.versionno,
      actor: reviewer,
      ...(signature ? { signature } : {}),
    }),
    actorUserId: actor.userId,
    // The stage commit's audit row records the stage and its decision (worker side).
    sameCommit: (after) => after.stage === body.stage && after.decision === body.decision,
  });
  if (answer.outcome === 'PROCESSING') return { status: 'PROCESSING', message: MESSAGES.access.reviewProcessing };
  return freshRequestView(deps, requestId, actor);
}
