/**
 * The profile-change request kind's store for the lifecycle's activities (001 §2.10, §3, §4; 000 §5): the
 * ProfileChangeRequest row; the approval's checks and effects (the directory entry first, `directory.ts`, then
 * in the commit the portal user's first name, last name and email, under the user's access lock, audited
 * `PROFILE_CHANGED` keyed `<workflowId>:<version>:user`); the resolution mail; the reconciler's and digest's
 * reads. 'Email address already exists in database' is checked again inside the commit: a refusal there leaves
 * the request's state and version unchanged (422).
 */
import {
  PROFILE_CHANGE_MESSAGES,
  REQUEST_STATUS_LABELS,
  RESOLVED_STATUSES,
  type RequestStatus,
} from '@portal/contract';
import { profileChangeDefinition } from '@portal/workflows';
import type { KindStore } from '../types';
import { applyProfileToDirectory } from './directory';
import { emailTakenBy } from './email';

const personLabel = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

export const profileChangeStore: KindStore = {
  definition: profileChangeDefinition,
  entityType: 'ProfileChangeRequest',

  async load(tx, requestId) {
    const row = await tx.profileChangeRequest.findUnique({ where: { id: requestId } });
    return (
      row && {
        status: row.requestStatus,
        reviewerComments: row.reviewerComments,
        sysaidTicket: row.sysaidTicket,
        version: row.versionno,
        subjectUserId: row.portalUserId,
      }
    );
  },

  async check(tx, input) {
    if (input.toStatus !== 'APPROVED') return null;
    const request = await tx.profileChangeRequest.findUniqueOrThrow({ where: { id: input.requestId } });
    if (!(await emailTakenBy(tx, request.email, request.portalUserId))) return null;
    return {
      outcome: 'REFUSED',
      failure: 'INVALID',
      fieldErrors: { email: [PROFILE_CHANGE_MESSAGES.emailInUse] },
      globalErrors: [],
    };
  },

  async effects(tx, input) {
    if (input.toStatus !== 'APPROVED') return;
    const request = await tx.profileChangeRequest.findUniqueOrThrow({
      where: { id: input.requestId },
      include: { user: true },
    });
    const { user } = request;
    const next = { firstName: request.firstName, lastName: request.lastName, email: request.email };
    await tx.portalUser.update({ where: { id: user.id }, data: next });
    await tx.auditEvent.create({
      data: {
        actorUserId: input.actor.userId,
        actorUsername: input.actor.username,
        entityType: 'PortalUser',
        entityId: String(user.id),
        action: 'PROFILE_CHANGED',
        before: { firstName: user.firstName, lastName: user.lastName, email: user.email },
        after: { ...next, profileChangeRequestId: request.id },
        workflowId: input.workflowId,
        idempotencyKey: `${input.workflowId}:${input.version}:user`,
      },
    });
  },

  async write(tx, input) {
    await tx.profileChangeRequest.update({
      where: { id: input.requestId },
      data: {
        requestStatus: input.toStatus as RequestStatus,
        reviewerComments: input.reviewerComments,
        sysaidTicket: input.sysaidTicket,
        versionno: input.version,
        lastModifiedBy: input.actor.username,
        dchng: new Date(),
      },
    });
  },

  async resolutionMail(prisma, requestId, portalUrl) {
    const request = await prisma.profileChangeRequest.findUniqueOrThrow({
      where: { id: requestId },
      include: { user: true },
    });
    const status = REQUEST_STATUS_LABELS[request.requestStatus].toLowerCase();
    const asked = `${request.firstName} ${request.lastName} <${request.email}>`;
    const text = [
      `Dear ${request.user.firstName} ${request.user.lastName},`,
      '',
      `Your request #${request.id} to change your name and/or email to ${asked} was ${status}.`,
      ...(request.requestStatus === 'APPROVED' ? ['Your portal account and directory entry now carry them.'] : []),
      ...(request.reviewerComments ? [`Reviewer comments: ${request.reviewerComments}`] : []),
      '',
      `You can see your requests under Profile, Requests History: ${portalUrl}/app/profile?tab=history&redirect=true`,
      '',
      'Portal Gateway User Support',
    ].join('\n');
    return {
      // After an approval the user's email is the new one: the mail goes where they now read it.
      to: request.user.email,
      subject: `Portal Gateway: your profile-change request #${request.id} was ${status}`,
      text,
    };
  },

  async waiting(prisma, before) {
    const rows = await prisma.profileChangeRequest.findMany({
      where: { requestStatus: { notIn: [...RESOLVED_STATUSES] }, sysdat: { lt: before } },
      include: { user: true },
      orderBy: { sysdat: 'asc' },
    });
    return rows.map((r) => ({
      label: profileChangeDefinition.label,
      requestId: r.id,
      status: REQUEST_STATUS_LABELS[r.requestStatus],
      subject: personLabel(r.user),
      filedAt: r.sysdat,
    }));
  },

  async unstarted(prisma, before) {
    const rows = await prisma.profileChangeRequest.findMany({
      where: { workflowStartedAt: null, sysdat: { lt: before } },
      include: { user: true },
      orderBy: { id: 'asc' },
      take: 100,
    });
    return rows.map((r) => ({
      requestId: r.id,
      subjectUserId: r.portalUserId,
      requesterUserId: r.portalUserId,
      subjectLabel: personLabel(r.user),
      requesterLabel: personLabel(r.user),
    }));
  },

  async markStarted(tx, requestId) {
    await tx.profileChangeRequest.updateMany({
      where: { id: requestId, workflowStartedAt: null },
      data: { workflowStartedAt: new Date() },
    });
  },

  applyOutsideEffects: applyProfileToDirectory,
};
