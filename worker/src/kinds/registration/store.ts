/**
 * The registration kind's store for the lifecycle's activities (001 §2.4, §4 Registration status): the
 * Registration row, the checks of a save (no change 304; unknown portal roles; the approval's refusals), the
 * approval's effects (directory entry first, then the portal user in the commit), the resolution mail, and
 * the reconciler's and digest's reads. A registration has no portal user until approved: its subject id is
 * null for the commit's lock and 0 in the workflow's search attributes, then the approved user's id.
 */
import { REGISTRATION_STATUS_LABELS, type RegistrationStatus } from '@portal/contract';
import { registrationDefinition } from '@portal/workflows';
import { unstartedQuery, waitingLine, waitingQuery } from '../request-reads';
import { requestRow } from '../request-row';
import type { KindStore } from '../types';
import { checkApproval, createApprovedUser, unknownRoles } from './approve';
import { createOrLinkEntry, removeCreatedEntry } from './directory';
import { registrationMail } from './mail';
import { readPayload } from './payload';

const personLabel = (r: { firstName: string; lastName: string; email: string }) =>
  `${r.firstName} ${r.lastName} <${r.email}>`;

const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

export const registrationStore: KindStore = {
  definition: registrationDefinition,
  entityType: 'Registration',

  ...requestRow({
    table: (tx) => tx.registration,
    status: (row) => row.registrationStatus,
    subjectUserId: (row) => row.portalUserId,
    written(input) {
      const { portalRoleIds } = readPayload(input.payload, input.requestId);
      return {
        registrationStatus: input.toStatus as RegistrationStatus,
        // Deny and delete carry no roles: the saved choice stays as it was.
        ...(input.toStatus === 'PENDING' || input.toStatus === 'APPROVED' ? { portalRoleIds } : {}),
      };
    },
  }),

  async check(tx, input, row) {
    if (input.toStatus === 'APPROVED') return checkApproval(tx, input);
    if (input.toStatus !== 'PENDING') return null;
    const { portalRoleIds } = readPayload(input.payload, input.requestId);
    const stored = await tx.registration.findUniqueOrThrow({ where: { id: input.requestId } });
    const unchanged =
      input.reviewerComments === row.reviewerComments &&
      input.sysaidTicket === row.sysaidTicket &&
      sameSet(portalRoleIds, stored.portalRoleIds);
    if (unchanged) return { outcome: 'REFUSED', failure: 'NO_CHANGES', fieldErrors: {}, globalErrors: [] };
    return unknownRoles(tx, portalRoleIds);
  },

  async effects(tx, input) {
    if (input.toStatus === 'APPROVED') await createApprovedUser(tx, input);
  },

  resolutionMail: registrationMail,

  applyOutsideEffects: createOrLinkEntry,

  undoOutsideEffects: removeCreatedEntry,

  async waiting(prisma, before) {
    const rows = await prisma.registration.findMany(waitingQuery({ registrationStatus: 'PENDING' as const }, before));
    return rows.map((r) =>
      waitingLine(registrationDefinition, r, REGISTRATION_STATUS_LABELS[r.registrationStatus], personLabel(r)),
    );
  },

  async unstarted(prisma, before) {
    const rows = await prisma.registration.findMany(unstartedQuery(before));
    return rows.map((r) => ({
      requestId: r.id,
      subjectUserId: 0,
      requesterUserId: r.proxyUserId ?? 0,
      subjectLabel: personLabel(r),
      requesterLabel: r.proxyName ?? 'the public registration form',
    }));
  },
};
