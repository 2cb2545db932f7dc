/** Maps a profile-change request row to its wire shape (001 §3 Profile-change request). */
import { type ProfileChangeRequest, allowedNextStatuses } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { type TemporalUi, workflowUrl } from '../../../shared/views';

type WithUser = Prisma.ProfileChangeRequestGetPayload<{ include: { user: true } }>;

/** What the view reads: the request's columns and its user's username (a Prisma row with WITH_USER, or list-sql.ts's). */
export type ProfileChangeRow = Omit<WithUser, 'user' | 'workflowStartedAt'> & {
  user: Pick<WithUser['user'], 'username'>;
};

/** Every read includes the user (the review screen names whose request it is). */
export const WITH_USER = { user: true } as const;

/** The wire shape of one request (001 §3), with its workflow's link when the Temporal UI is configured. */
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
