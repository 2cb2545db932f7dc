/** Maps a Registration row to its wire shape (001 §3 Registration). */
import { AccessControlSchema, type Registration } from '@portal/contract';
import type { Registration as RegistrationRow } from '@portal/db';
import type { Deps } from '../../../deps';
import { workflowUrl } from '../../../shared/views';

/** The wire shape of one registration (001 §3), with its workflow's link when the Temporal UI is configured. */
export function registrationView(r: RegistrationRow, deps: Pick<Deps, 'cfg'>): Registration {
  const blocks = AccessControlSchema.array().safeParse(r.accessControls);
  return {
    id: r.id,
    versionno: r.versionno,
    firstName: r.firstName,
    lastName: r.lastName,
    jobTitle: r.jobTitle,
    organizationName: r.organizationName,
    phoneNumber: r.phoneNumber,
    phoneExtension: r.phoneExtension,
    email: r.email,
    accessControls: blocks.success ? blocks.data : [],
    requesterComments: r.requesterComments,
    reviewerComments: r.reviewerComments,
    sysaidTicket: r.sysaidTicket,
    registrationStatus: r.registrationStatus,
    portalRoleIds: r.portalRoleIds,
    isProxy: r.isProxy,
    proxyUserId: r.proxyUserId,
    proxyName: r.proxyName,
    proxyEmail: r.proxyEmail,
    proxyPhone: r.proxyPhone,
    proxyPhoneExt: r.proxyPhoneExt,
    personCompletingThisFormEmail: r.personCompletingThisFormEmail,
    personCompletingThisFormFullName: r.personCompletingThisFormFullName,
    personCompletingThisFormPhoneNumber: r.personCompletingThisFormPhoneNumber,
    personCompletingThisFormPhoneExtension: r.personCompletingThisFormPhoneExtension,
    portalUserId: r.portalUserId,
    sysdat: r.sysdat.toISOString(),
    dchng: r.dchng.toISOString(),
    lastModifiedBy: r.lastModifiedBy,
    workflowId: r.workflowId,
    workflowUrl: workflowUrl(deps.cfg.TEMPORAL_UI_URL, deps.cfg.TEMPORAL_NAMESPACE, r.workflowId),
  };
}
