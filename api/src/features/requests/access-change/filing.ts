/**
 * Filing access-modification requests (001 §7 POST /rest/secure/user_access_mod_request; 001 §4): the body's
 * role blocks are checked against the reference data, then the one transactional filing of an access change
 * (`fileAccessChange` of @portal/db, shared with the proxy batch) runs under the (ACCESS_CHANGE, subject)
 * filing lock and the workflow is started (`fileAndStart`). Its refusals answer: REQUEST_IN_PROGRESS (422)
 * for an unresolved request naming one of the study roles, 422 `fieldErrors` (an inactive subject:
 * `portalUserId`; a role now inactive, NEW for a held role, CHANGE/REMOVE for one not held), 304 for a CHANGE
 * asking for exactly the access held without comments.
 */
import type { AccessModRequest, CreateAccessModRequestBody } from '@portal/contract';
import { GLOBAL_ERRORS } from '@portal/contract';
import { type FiledAccessChange, Prisma, approvalStageCount, fileAccessChange } from '@portal/db';
import { accessChangeDefinition, accessChangeWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, notModified, unprocessable } from '../../../http/errors';
import { fileAndStart, lifecycleStartOf } from '../../../shared/filing';
import { proxyFilingFor } from '../../../shared/proxy-filing';
import { accessControlErrors } from '../../../shared/reference-sets';
import { queryRows } from '../../../shared/sql';
import { accessModRequestView } from './view';
import { temporalUiOf } from '../../../shared/views';

const label = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

/**
 * Files the caller's access-modification request (module note). Hot path (issue 24): the reference sets come
 * from memory (shared/reference-sets.ts), the filing runs as SQL on one pool connection (its lock sent with
 * BEGIN), and the start is marked with one UPDATE the answer does not wait for.
 * @throws HttpError 403 (proxy), 404 (no such user), 422, 304; 503 (database).
 */
export async function createAccessModRequest(
  deps: Deps,
  actor: AuthContext,
  body: CreateAccessModRequestBody,
): Promise<AccessModRequest> {
  // A request for another user is a proxy request (001 §6, §9): the proxy right and the proxy's sites.
  const proxy = await proxyFilingFor(deps, actor, body.portalUserId);
  const fieldErrors = await accessControlErrors(deps, body.accessControls);
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);

  const { result: row } = await fileAndStart<FiledAccessChange>(deps, {
    lock: { kind: 'ACCESS_CHANGE', id: body.portalUserId },
    start: (id, filed) =>
      lifecycleStartOf(
        deps,
        accessChangeDefinition,
        { id: filed.subject.id, label: label(filed.subject) },
        { id: filed.requester.id, label: label(filed.requester) },
        // The workflow of a request without a plan runs exactly the spec's review (docs/decisions.md).
        { approvalStages: approvalStageCount(filed.approvalPlan) },
      )(id),
    // The answer does not wait for the mark: its outcome never changes the answer (a failed mark only leaves
    // the started workflow to the reconciler, which finds it running), so the person is not kept for it.
    markStarted: async (id) => {
      markAccessChangeStarted(deps.prisma, id).catch((err: unknown) =>
        console.warn(`filing: access-change-${id} started, its mark left to the reconciler: ${String(err)}`),
      );
    },
    insertSql: async (run) => {
      const filed = await fileAccessChange(run, {
        caller: 'REQUEST',
        requestType: body.requestType,
        subjectUserId: body.portalUserId,
        requester: { id: actor.userId, username: actor.username },
        proxy,
        proxyCommentMarker: deps.cfg.PROXY_COMMENT_MARKER,
        accessControls: body.accessControls,
        requesterComments: body.requesterComments,
        workflowIdOf: accessChangeWorkflowId,
      });
      switch (filed.outcome) {
        case 'UNKNOWN_SUBJECT':
          throw notFound('Unable to load the specified user.');
        case 'OPEN_REQUEST':
          throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);
        case 'INVALID':
          throw unprocessable(filed.fieldErrors);
        case 'NO_CHANGES':
          throw notModified();
        case 'FILED':
          return { requestId: filed.request.id, result: filed.request };
      }
    },
  });
  return accessModRequestView(row, temporalUiOf(deps.cfg));
}

/** Marks `access-change-<id>`'s workflow started (the reconciler skips it): one UPDATE on the hot pool. */
async function markAccessChangeStarted(prisma: Deps['prisma'], id: number): Promise<void> {
  await queryRows(
    prisma,
    Prisma.sql`UPDATE "AccessModRequest" SET "workflowStartedAt" = ${new Date()}::timestamp WHERE "id" = ${id}::int`,
  );
}
