/**
 * Filing a profile-change request (001 §7 POST /rest/secure/ldap_user_profile_mod_request; 001 §2.10 'Submitted
 * By: Self'; 000 §5) through `fileAndStart` (commit, then start `profile-change-<id>`):
 * - only for oneself (403 for another `portalUserId`);
 * - 304 when the name and email are the ones the user has;
 * - 422: the contract's limits, `internal` on a changed field of an internal account (000 §5: those fields are
 *   locked), 'Email address already exists in database' / `doesntExistInLdap` for a taken email;
 * - one outstanding request per user (000 §5): 422 REQUEST_IN_PROGRESS, re-checked under the
 *   (PROFILE_CHANGE, user) filing lock, so two tabs submitting at once file one request.
 */
import {
  type CreateProfileChangeBodySchema,
  type FieldErrors,
  GLOBAL_ERRORS,
  INTERNAL_ACCOUNT_TYPE,
  PROFILE_CHANGE_FIELDS,
  type ProfileChangeRequest,
  RESOLVED_STATUSES,
} from '@portal/contract';
import { profileChangeDefinition, profileChangeWorkflowId } from '@portal/workflows';
import type { z } from 'zod';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { forbidden, notFound, notModified, unprocessable } from '../../../http/errors';
import { fileAndStart, lifecycleStartOf } from '../../../shared/filing';
import { emailProblems } from './email-check';
import { WITH_USER, profileChangeView } from './view';
import { temporalUiOf } from '../../../shared/views';
import { recordAudit } from '../../../shared/audit-log';

type CreateBody = z.output<typeof CreateProfileChangeBodySchema>;

export async function createProfileChangeRequest(
  deps: Deps,
  actor: AuthContext,
  body: CreateBody,
): Promise<ProfileChangeRequest> {
  const { prisma } = deps;
  if (body.portalUserId !== undefined && body.portalUserId !== actor.userId) throw forbidden();
  const user = await prisma.portalUser.findUnique({ where: { id: actor.userId } });
  if (!user) throw notFound('Unable to load the specified user.');

  const changed = PROFILE_CHANGE_FIELDS.filter((f) => body[f] !== user[f]);
  if (changed.length === 0) throw notModified();
  const fieldErrors: FieldErrors = {};
  if (user.accountType === INTERNAL_ACCOUNT_TYPE) for (const f of changed) fieldErrors[f] = ['internal'];
  if (!fieldErrors.email && body.email !== user.email) {
    Object.assign(fieldErrors, await emailProblems(prisma, deps.directory, user, body.email));
  }
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);

  const party = { id: user.id, label: `${user.firstName} ${user.lastName} (${user.username})` };
  const { result: row } = await fileAndStart(deps, {
    lock: { kind: 'PROFILE_CHANGE', id: user.id },
    start: lifecycleStartOf(deps, profileChangeDefinition, party, party),
    markStarted: async (id) => {
      await prisma.profileChangeRequest.update({ where: { id }, data: { workflowStartedAt: new Date() } });
    },
    insert: async (tx) => {
      const open = await tx.profileChangeRequest.count({
        where: { portalUserId: user.id, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
      });
      if (open > 0) throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);
      const [{ id }] = await tx.$queryRaw<
        [{ id: bigint }]
      >`SELECT nextval(pg_get_serial_sequence('"ProfileChangeRequest"', 'id')) AS id`;
      const requestId = Number(id);
      const workflowId = profileChangeWorkflowId(requestId);
      const created = await tx.profileChangeRequest.create({
        include: WITH_USER,
        data: {
          id: requestId,
          workflowId,
          requestStatus: 'NEW',
          portalUserId: user.id,
          firstName: body.firstName,
          lastName: body.lastName,
          email: body.email,
          originalFirstName: user.firstName,
          originalLastName: user.lastName,
          originalEmail: user.email,
          requesterComments: body.requesterComments,
          sysaidTicket: body.sysaidTicket,
          lastModifiedBy: actor.username,
        },
      });
      await recordAudit(tx, actor, {
        entityType: 'ProfileChangeRequest',
        entityId: requestId,
        action: 'CREATED',
        before: { firstName: user.firstName, lastName: user.lastName, email: user.email },
        after: { firstName: body.firstName, lastName: body.lastName, email: body.email, requestStatus: 'NEW' },
        workflowId,
        idempotencyKey: `${workflowId}:0`,
      });
      return { requestId, result: created };
    },
  });
  return profileChangeView(row, temporalUiOf(deps.cfg));
}
