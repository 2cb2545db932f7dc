/**
 * Filing access-modification requests (001 §7 POST /rest/secure/user_access_mod_request; 001 §4) through
 * the lifecycle's `fileRequest` (commit, then start). One open request per subject and study role
 * (REQUEST_IN_PROGRESS), re-checked under the (ACCESS_CHANGE, subject) filing lock. A CHANGE that asks for the
 * access already held, without comments, answers 304 (no changes).
 */
import type { AccessModRequest, CreateAccessModRequestBody, FieldErrors } from '@portal/contract';
import { GLOBAL_ERRORS, RESOLVED_STATUSES, sameAccess } from '@portal/contract';
import { accessChangeDefinition, accessChangeWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, notModified, unprocessable } from '../../../http/errors';
import { fileRequest } from '../../../shared/lifecycle-client';
import { proxyFilingFor } from '../../../shared/proxy-filing';
import { checkAccessControls, loadReferenceSets } from '../../../shared/access-rules';
import { accessModRequestView } from './view';
import { temporalUiOf } from '../../../shared/views';

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

  const fieldErrors: FieldErrors = checkAccessControls(body.accessControls, await loadReferenceSets(prisma));
  const active = await prisma.userAccess.findMany({ where: { portalUserId: subject.id, inactive: false } });
  const held = new Set(active.map((a) => a.roleName));
  body.accessControls.forEach((b, i) => {
    const key = `accessControls[${i}].roleName`;
    if (body.requestType === 'NEW' && held.has(b.roleName)) (fieldErrors[key] ??= []).push('unique');
    if (body.requestType !== 'NEW' && !held.has(b.roleName)) (fieldErrors[key] ??= []).push('nonexistent');
  });
  if (body.requestType !== 'NEW' && body.accessControls.length !== 1) {
    (fieldErrors.accessControls ??= []).push('invalid');
  }
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);
  const existing =
    body.requestType === 'NEW' ? null : active.find((a) => a.roleName === body.accessControls[0]!.roleName);
  // 001 §5, §7: a CHANGE asking for exactly the access held, with no comments, has nothing to submit (304).
  if (body.requestType === 'CHANGE' && existing && !body.requesterComments) {
    if (sameAccess(existing, body.accessControls[0]!)) throw notModified();
  }

  const person = (u: { id: number; firstName: string; lastName: string; username: string }) => ({
    id: u.id,
    label: `${u.firstName} ${u.lastName} (${u.username})`,
  });
  const { result: row } = await fileRequest(deps, {
    def: accessChangeDefinition,
    subject: person(subject),
    requester: proxy ? person({ ...actor, id: actor.userId }) : person(subject),
    markStarted: async (id) => {
      await prisma.accessModRequest.update({ where: { id }, data: { workflowStartedAt: new Date() } });
    },
    insert: async (tx) => {
      const open = await tx.accessModRequest.findMany({
        where: { subjectUserId: subject.id, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
        select: { accessControls: true },
      });
      const openRoles = new Set(
        open.flatMap((o) => (o.accessControls as Array<{ roleName: string }>).map((c) => c.roleName)),
      );
      if (body.accessControls.some((b) => openRoles.has(b.roleName))) {
        throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);
      }
      const [{ id }] = await tx.$queryRaw<
        [{ id: bigint }]
      >`SELECT nextval(pg_get_serial_sequence('"AccessModRequest"', 'id')) AS id`;
      const requestId = Number(id);
      const workflowId = accessChangeWorkflowId(requestId);
      const created = await tx.accessModRequest.create({
        include: { subject: true, requester: true },
        data: {
          id: requestId,
          workflowId,
          requestType: body.requestType,
          requestStatus: 'NEW',
          subjectUserId: subject.id,
          requesterUserId: actor.userId,
          isProxyRequest: proxy !== null,
          accessControls: body.accessControls.map((b, i) => ({ ...b, questionNum: b.questionNum ?? i + 1 })),
          existingUserAccessId: existing?.id ?? null,
          requesterComments: proxy ? proxy.comment(subject, body.requesterComments) : body.requesterComments,
          lastModifiedBy: actor.username,
        },
      });
      await tx.auditEvent.create({
        data: {
          actorUserId: actor.userId,
          actorUsername: actor.username,
          entityType: 'AccessModRequest',
          entityId: String(created.id),
          action: 'CREATED',
          after: { requestType: body.requestType, requestStatus: 'NEW', accessControls: body.accessControls },
          workflowId,
          idempotencyKey: `${workflowId}:0`,
        },
      });
      return { requestId, result: created };
    },
  });
  return accessModRequestView(row, temporalUiOf(deps.cfg));
}
