/** Maps a profile-change request row to its wire shape (001 §3 Profile-change request). */
import { type ProfileChangeRequest, allowedNextStatuses } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { type TemporalUi, workflowUrl } from '../../../shared/views';

export type ProfileChangeRow = Prisma.ProfileChangeRequestGetPayload<{ include: { user: true } }>;

/** Every read includes the user (the review screen names whose request it is). */
export const WITH_USER = { user: true } as const;

export function profileChangeView(r: ProfileChangeRow, temporal: TemporalUi): ProfileChangeRequest {
  return {
    id: r.id,
    portalUserId: r.portalUserId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    originalFirstName: r.originalFirstName,
    originalLastName: r.originalLastName,
    originalEmail: r.originalEmail,
    username: r.user.username,
    requestStatus: r.requestStatus,
    requesterComments: r.requesterComments,
    reviewerComments: r.reviewerComments,
    sysaidTicket: r.sysaidTicket,
    sysdat: r.sysdat.toISOString(),
    dchng: r.dchng.toISOString(),
    lastModifiedBy: r.lastModifiedBy,
    inactive: r.inactive,
    versionno: r.versionno,
    allowedNextStatuses: allowedNextStatuses(r.requestStatus),
    workflowId: r.workflowId,
    workflowUrl: workflowUrl(temporal.uiUrl, temporal.namespace, r.workflowId),
  };
}
