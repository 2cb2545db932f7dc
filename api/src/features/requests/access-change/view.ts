/** Maps an access-modification request row to its wire shape (001 §3 User access modification request). */
import type { AccessControl, AccessModRequest } from '@portal/contract';
import { AccessControlSchema, allowedNextStatuses } from '@portal/contract';
import type { AccessModRequest as AccessModRequestRow, PortalUser } from '@portal/db';
import { type TemporalUi, workflowUrl } from '../../../shared/views';

/**
 * A request row with what the view reads of its parties (a Prisma row with both included, or a filing's); the
 * approval columns are read apart, by the views that show stages.
 */
export type RequestRow = Omit<
  AccessModRequestRow,
  'approvalPlan' | 'approvalStage' | 'approvalGroup' | 'approvalDeadline' | 'approvalLaoIds' | 'approvalStudyNames'
> & {
  subject: Pick<PortalUser, 'firstName' | 'lastName' | 'email'>;
  requester: Pick<PortalUser, 'firstName' | 'lastName'>;
};

export function accessModRequestView(r: RequestRow, temporal: TemporalUi): AccessModRequest {
  const accessControls: AccessControl[] = AccessControlSchema.array().parse(r.accessControls);
  return {
    id: r.id,
    workflowId: r.workflowId,
    requestType: r.requestType,
    requestStatus: r.requestStatus,
    requesterComments: r.requesterComments,
    reviewerComments: r.reviewerComments,
    sysaidTicket: r.sysaidTicket,
    inactive: r.inactive,
    sysdat: r.sysdat.toISOString(),
    dchng: r.dchng.toISOString(),
    lastModifiedBy: r.lastModifiedBy,
    subjectUserId: r.subjectUserId,
    proxyUserId: r.isProxyRequest ? r.requesterUserId : null,
    portalUserId: r.subjectUserId,
    firstName: r.subject.firstName,
    lastName: r.subject.lastName,
    email: r.subject.email,
    isProxyRequest: r.isProxyRequest,
    proxyName: r.isProxyRequest ? `${r.requester.firstName} ${r.requester.lastName}` : null,
    accessControls,
    versionno: r.versionno,
    allowedNextStatuses: allowedNextStatuses(r.requestStatus),
    workflowUrl: workflowUrl(temporal.uiUrl, temporal.namespace, r.workflowId),
    existingUserAccessId: r.existingUserAccessId,
  };
}
