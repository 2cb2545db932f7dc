/**
 * The access-change request kind's store for the lifecycle's activities (001 §2.8, §4, §7): the
 * AccessModRequest row, the review's effect on the user's portal roles and access records, the resolution
 * mail, and the reconciler's and digest's reads.
 */
import { REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS, RESOLVED_STATUSES, type RequestStatus } from '@portal/contract';
import { accessChangeDefinition } from '@portal/workflows';
import type { KindStore } from '../types';
import { applyReviewedAccess, reviewProblems } from './apply';

const personLabel = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

export const accessChangeStore: KindStore = {
  definition: accessChangeDefinition,
  entityType: 'AccessModRequest',

  async load(tx, requestId) {
    const row = await tx.accessModRequest.findUnique({ where: { id: requestId } });
    return (
      row && {
        status: row.requestStatus,
        reviewerComments: row.reviewerComments,
        sysaidTicket: row.sysaidTicket,
        version: row.versionno,
        subjectUserId: row.subjectUserId,
      }
    );
  },

  // Status, comments and ticket were checked against the workflow's state; the roles and records against the rows.
  async check(tx, input, row) {
    return reviewProblems(tx, input, row);
  },

  // What the reviewer applied, on saving whatever the status (001 §2.8); approval by itself grants nothing.
  async effects(tx, input, row) {
    await applyReviewedAccess(tx, input, row);
  },

  async write(tx, input) {
    await tx.accessModRequest.update({
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
    const request = await prisma.accessModRequest.findUniqueOrThrow({
      where: { id: requestId },
      include: { subject: true },
    });
    const status = REQUEST_STATUS_LABELS[request.requestStatus].toLowerCase();
    const roles = (request.accessControls as Array<{ roleName: string }>).map((c) => c.roleName).join(', ');
    const text = [
      `Dear ${request.subject.firstName} ${request.subject.lastName},`,
      '',
      `Your ${REQUEST_TYPE_LABELS[request.requestType]} request #${request.id} (${roles}) was ${status}.`,
      ...(request.reviewerComments ? [`Reviewer comments: ${request.reviewerComments}`] : []),
      '',
      `You can see your requests under Profile, Requests History: ${portalUrl}/app/profile?tab=history&redirect=true`,
      '',
      'Portal Gateway User Support',
    ].join('\n');
    return {
      to: request.subject.email,
      subject: `Portal Gateway: your access request #${request.id} was ${status}`,
      text,
    };
  },

  async waiting(prisma, before) {
    const rows = await prisma.accessModRequest.findMany({
      where: { requestStatus: { notIn: [...RESOLVED_STATUSES] }, sysdat: { lt: before } },
      include: { subject: true },
      orderBy: { sysdat: 'asc' },
    });
    return rows.map((r) => ({
      label: accessChangeDefinition.label,
      requestId: r.id,
      status: REQUEST_STATUS_LABELS[r.requestStatus],
      subject: personLabel(r.subject),
      filedAt: r.sysdat,
    }));
  },

  async unstarted(prisma, before) {
    const rows = await prisma.accessModRequest.findMany({
      where: { workflowStartedAt: null, sysdat: { lt: before } },
      include: { subject: true, requester: true },
      orderBy: { id: 'asc' },
      take: 100,
    });
    return rows.map((r) => ({
      requestId: r.id,
      subjectUserId: r.subjectUserId,
      requesterUserId: r.requesterUserId,
      subjectLabel: personLabel(r.subject),
      requesterLabel: personLabel(r.requester),
    }));
  },

  async markStarted(tx, requestId) {
    await tx.accessModRequest.updateMany({
      where: { id: requestId, workflowStartedAt: null },
      data: { workflowStartedAt: new Date() },
    });
  },
};
