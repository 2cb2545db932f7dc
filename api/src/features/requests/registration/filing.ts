/**
 * Filing a registration (001 §2.1 public form, §2.2 'Request a User'; §7 POST /rest/public/user_registration
 * and /rest/secure/user_registration) through `fileAndStart` (commit, then start). Under the
 * (REGISTRATION, email) filing lock: an address that already has a portal user is refused
 * (email: doesntExistInDb), one with a pending registration answers REQUEST_IN_PROGRESS.
 */
import crypto from 'node:crypto';
import type { FieldErrors, ProxyRegistrationBody, Registration, RegistrationFields } from '@portal/contract';
import { GLOBAL_ERRORS } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { registrationDefinition, registrationWorkflowId } from '@portal/workflows';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { unprocessable } from '../../../http/errors';
import { checkAccessControls, loadReferenceSets } from '../../../shared/access-rules';
import { fileAndStart, lifecycleStartOf } from '../../../shared/filing';
import { registrationView } from './view';
import { recordAudit } from '../../../shared/audit-log';

/** The filing lock's subject: a registration has no user yet, so the address's hash stands for it. */
const emailLockId = (email: string): number =>
  crypto.createHash('sha256').update(email.toLowerCase()).digest().readInt32BE(0);

/** The proxy side of a registration filed by a signed-in user. */
export interface ProxyParty {
  actor: AuthContext;
  phone: string;
  phoneExt: string;
  body: ProxyRegistrationBody;
}

/** Files a registration. @throws HttpError 422 (field rules, address in use, pending registration), 503. */
export async function fileRegistration(
  deps: Deps,
  fields: RegistrationFields,
  proxy: ProxyParty | null,
): Promise<Registration> {
  const { prisma } = deps;
  const fieldErrors: FieldErrors = checkAccessControls(fields.accessControls, await loadReferenceSets(prisma));
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);
  const subjectLabel = `${fields.firstName} ${fields.lastName} <${fields.email}>`;
  const requester = proxy
    ? { id: proxy.actor.userId, label: `${proxy.actor.firstName} ${proxy.actor.lastName} (${proxy.actor.username})` }
    : { id: 0, label: 'the public registration form' };
  const actorName = proxy?.actor.username ?? 'public';
  const { result } = await fileAndStart(deps, {
    lock: { kind: 'REGISTRATION', id: emailLockId(fields.email) },
    // No portal user exists until the approval: the workflow's SubjectUserId is 0 until then (issue 21 case 9).
    start: lifecycleStartOf(deps, registrationDefinition, { id: 0, label: subjectLabel }, requester),
    markStarted: async (id) => {
      await prisma.registration.update({ where: { id }, data: { workflowStartedAt: new Date() } });
    },
    insert: async (tx) => {
      const email = { equals: fields.email, mode: 'insensitive' as const };
      if (await tx.portalUser.findFirst({ where: { email } })) throw unprocessable({ email: ['doesntExistInDb'] });
      if (await tx.registration.findFirst({ where: { email, registrationStatus: 'PENDING' } })) {
        throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);
      }
      const [{ id }] = await tx.$queryRaw<
        [{ id: bigint }]
      >`SELECT nextval(pg_get_serial_sequence('"Registration"', 'id')) AS id`;
      const requestId = Number(id);
      const workflowId = registrationWorkflowId(requestId);
      const data: Prisma.RegistrationUncheckedCreateInput = {
        id: requestId,
        workflowId,
        firstName: fields.firstName,
        lastName: fields.lastName,
        jobTitle: fields.jobTitle,
        organizationName: fields.organizationName,
        phoneNumber: fields.phoneNumber,
        phoneExtension: fields.phoneExtension,
        email: fields.email,
        accessControls: fields.accessControls.map((b, i) => ({ ...b, questionNum: b.questionNum ?? i + 1 })),
        requesterComments: fields.requesterComments,
        lastModifiedBy: actorName,
        ...(proxy && {
          isProxy: true,
          proxyUserId: proxy.actor.userId,
          proxyName: `${proxy.actor.firstName} ${proxy.actor.lastName}`,
          proxyEmail: proxy.actor.email,
          proxyPhone: proxy.phone,
          proxyPhoneExt: proxy.phoneExt,
          personCompletingThisFormEmail: proxy.body.personCompletingThisFormEmail,
          personCompletingThisFormFullName: proxy.body.personCompletingThisFormFullName,
          personCompletingThisFormPhoneNumber: proxy.body.personCompletingThisFormPhoneNumber,
          personCompletingThisFormPhoneExtension: proxy.body.personCompletingThisFormPhoneExtension,
        }),
      };
      const created = await tx.registration.create({ data });
      await recordAudit(
        tx,
        { userId: proxy?.actor.userId ?? null, username: actorName },
        {
          entityType: 'Registration',
          entityId: requestId,
          action: 'CREATED',
          after: { email: fields.email, isProxy: !!proxy, accessControls: fields.accessControls },
          workflowId,
          idempotencyKey: `${workflowId}:0`,
        },
      );
      return { requestId, result: created };
    },
  });
  return registrationView(result, deps);
}
