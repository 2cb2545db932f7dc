/**
 * The profile-change request kind's store for the lifecycle's activities (001 §2.10, §3, §4; 000 §5): the
 * ProfileChangeRequest row; the approval's checks and effects (the directory entry first, `directory.ts`, then
 * in the commit the portal user's first name, last name and email, under the user's access lock, audited
 * `PROFILE_CHANGED` keyed `<workflowId>:<version>:user`); the resolution mail; the reconciler's and digest's
 * reads. 'Email address already exists in database' is checked again inside the commit: a refusal there leaves
 * the request's state and version unchanged (422).
 */
import { PROFILE_CHANGE_MESSAGES, REQUEST_STATUS_LABELS, type RequestStatus } from '@portal/contract';
import { noteProvisioning } from '@portal/db';
import { profileChangeDefinition } from '@portal/workflows';
import { auditEffect } from '../effect-audit';
import { resolvedAs, userResolutionMail } from '../request-mail';
import { personLabel, unresolvedRequest, unstartedQuery, waitingLine, waitingQuery } from '../request-reads';
import { requestRow } from '../request-row';
import type { KindStore } from '../types';
import { applyProfileToDirectory, restoreProfileInDirectory } from './directory';
import { emailTakenBy } from './email';

export const profileChangeStore: KindStore = {
  definition: profileChangeDefinition,
  entityType: 'ProfileChangeRequest',

  ...requestRow({
    table: (tx) => tx.profileChangeRequest,
    status: (row) => row.requestStatus,
    subjectUserId: (row) => row.portalUserId,
    written: (input) => ({ requestStatus: input.toStatus as RequestStatus }),
  }),

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
    // The new name and email reach every provisioned system once this commits (issue 41).
    await noteProvisioning(tx, user.id, null);
    await auditEffect(tx, input, 'user', {
      entityType: 'PortalUser',
      entityId: String(user.id),
      action: 'PROFILE_CHANGED',
      before: { firstName: user.firstName, lastName: user.lastName, email: user.email },
      after: { ...next, profileChangeRequestId: request.id },
    });
  },

  async resolutionMail(prisma, requestId, portalUrl) {
    const request = await prisma.profileChangeRequest.findUniqueOrThrow({
      where: { id: requestId },
      include: { user: true },
    });
    const asked = `${request.firstName} ${request.lastName} <${request.email}>`;
    // After an approval the user's email is the new one: the mail goes where they now read it.
    return userResolutionMail(
      request.user,
      request,
      'profile-change',
      [
        `Your request #${request.id} to change your name and/or email to ${asked} was ${resolvedAs(request)}.`,
        ...(request.requestStatus === 'APPROVED' ? ['Your portal account and directory entry now carry them.'] : []),
      ],
      portalUrl,
    );
  },

  async waiting(prisma, before) {
    const rows = await prisma.profileChangeRequest.findMany({
      ...waitingQuery(unresolvedRequest(), before),
      include: { user: true },
    });
    return rows.map((r) =>
      waitingLine(profileChangeDefinition, r, REQUEST_STATUS_LABELS[r.requestStatus], personLabel(r.user)),
    );
  },

  async unstarted(prisma, before) {
    const rows = await prisma.profileChangeRequest.findMany({ ...unstartedQuery(before), include: { user: true } });
    return rows.map((r) => ({
      requestId: r.id,
      subjectUserId: r.portalUserId,
      requesterUserId: r.portalUserId,
      subjectLabel: personLabel(r.user),
      requesterLabel: personLabel(r.user),
    }));
  },

  applyOutsideEffects: applyProfileToDirectory,

  undoOutsideEffects: restoreProfileInDirectory,
};
