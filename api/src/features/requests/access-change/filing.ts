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
import { fileAccessChange } from '@portal/db';
import { accessChangeDefinition, accessChangeWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, notModified, unprocessable } from '../../../http/errors';
import { fileAndStart, lifecycleStartOf } from '../../../shared/filing';
import { proxyFilingFor } from '../../../shared/proxy-filing';
import { checkAccessControls, loadReferenceSets } from '../../../shared/access-rules';
import { accessModRequestView } from './view';
import { temporalUiOf } from '../../../shared/views';

const label = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

export async function createAccessModRequest(
  deps: Deps,
  actor: AuthContext,
  body: CreateAccessModRequestBody,
): Promise<AccessModRequest> {
  const { prisma } = deps;
  // A request for another user is a proxy request (001 §6, §9): the proxy right and the proxy's sites.
  const proxy = await proxyFilingFor(deps, actor, body.portalUserId);
  const subject = await prisma.portalUser.findUnique({ where: { id: body.portalUserId } });
  if (!subject) throw notFound('Unable to load the specified user.');
  const fieldErrors = checkAccessControls(body.accessControls, await loadReferenceSets(prisma));
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);

  const requester = proxy ? { id: actor.userId, label: label(actor) } : { id: subject.id, label: label(subject) };
  const { result: row } = await fileAndStart(deps, {
    lock: { kind: 'ACCESS_CHANGE', id: subject.id },
    start: lifecycleStartOf(deps, accessChangeDefinition, { id: subject.id, label: label(subject) }, requester),
    markStarted: async (id) => {
      await prisma.accessModRequest.update({ where: { id }, data: { workflowStartedAt: new Date() } });
    },
    insert: async (tx) => {
      const filed = await fileAccessChange(tx, {
        caller: 'REQUEST',
        requestType: body.requestType,
        subjectUserId: subject.id,
        requester: { id: actor.userId, username: actor.username },
        proxy,
        accessControls: body.accessControls,
        requesterComments: body.requesterComments,
        workflowIdOf: accessChangeWorkflowId,
      });
      switch (filed.outcome) {
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
