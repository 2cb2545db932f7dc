/**
 * The approving commit of a registration (001 §2.4 'Create User'; REQUEST-LIFECYCLE rules 2 and 7): checks
 * that need the database, then, in the commit's one transaction, the portal user (linked to the directory
 * entry the outside effect recorded), its portal roles and the requested access records, written under the
 * new user's access lock, with a USER_CREATED audit row keyed `<workflowId>:<version>:user`.
 */
import {
  AccessControlSchema,
  APPROVAL_WARNING_KEY,
  approvalProblems,
  type RegistrationReviewPayload,
} from '@portal/contract';
import { applyAccessPlan, lockAndLoadAccess, planAccess, setPortalRoles } from '@portal/db';
import type { CommitSaveInput } from '@portal/workflows';
import { auditEffect } from '../effect-audit';
import type { Refusal, Tx } from '../types';
import { invalid, readApproval } from './payload';

const EMAIL_IN_USE = 'Email address already exists in database';

const refusal = (fieldErrors: Record<string, string[]>, globalErrors: string[] = []): Refusal => ({
  outcome: 'REFUSED',
  failure: 'INVALID',
  fieldErrors,
  globalErrors,
});

/** Portal role ids among `ids` that are unknown or inactive: fieldErrors.portalRoleIds ['nonexistent']. */
export async function unknownRoles(tx: Tx, ids: number[]): Promise<Refusal | null> {
  if (ids.length === 0) return null;
  const found = await tx.portalRole.count({ where: { id: { in: ids }, inactive: false } });
  return found === new Set(ids).size ? null : refusal({ portalRoleIds: ['nonexistent'] });
}

/** Refusals of an approval that need the database (the pure ones are `approvalProblems`). */
export async function checkApproval(tx: Tx, input: CommitSaveInput): Promise<Refusal | null> {
  const reg = await tx.registration.findUniqueOrThrow({ where: { id: input.requestId } });
  const choice = readApproval(input.payload, input.requestId);
  const problems = approvalProblems(choice, reg.email, choice.organisationEmailDomains);
  if (problems) return refusal(problems.fieldErrors, problems.globalErrors);
  const roles = await unknownRoles(tx, choice.portalRoleIds);
  if (roles) return roles;
  if (!reg.directoryUuid || !reg.username) throw invalid(`registration ${reg.id}: no directory entry was recorded`);
  const fieldErrors: Record<string, string[]> = {};
  const email = await tx.portalUser.findFirst({ where: { email: { equals: reg.email, mode: 'insensitive' } } });
  if (email) fieldErrors[APPROVAL_WARNING_KEY] = [EMAIL_IN_USE];
  if (await tx.portalUser.findUnique({ where: { username: reg.username } })) fieldErrors.username = ['unique'];
  if (await tx.portalUser.findUnique({ where: { uuid: reg.directoryUuid } })) {
    fieldErrors.existingAuthAccountUuid = ['unique'];
  }
  return Object.keys(fieldErrors).length ? refusal(fieldErrors) : null;
}

/** Creates the approved registration's portal user with its roles and access (inside the commit). */
export async function createApprovedUser(tx: Tx, input: CommitSaveInput): Promise<void> {
  const reg = await tx.registration.findUniqueOrThrow({ where: { id: input.requestId } });
  const payload: RegistrationReviewPayload = { portalRoleIds: readApproval(input.payload, reg.id).portalRoleIds };
  const blocks = AccessControlSchema.array().safeParse(reg.accessControls);
  if (!blocks.success || !reg.directoryUuid || !reg.username) {
    throw invalid(`registration ${reg.id} holds an invalid body or no directory entry`);
  }
  const user = await tx.portalUser.create({
    data: {
      uuid: reg.directoryUuid,
      username: reg.username,
      firstName: reg.firstName,
      lastName: reg.lastName,
      email: reg.email,
      gecos: reg.gecos ?? '',
      accountType: reg.accountType ?? 'external',
      organizationName: reg.organizationName,
      jobTitle: reg.jobTitle,
      phoneNumber: reg.phoneNumber,
      phoneExtension: reg.phoneExtension,
    },
  });
  // Rule 7: every writer of a user's roles and access holds that user's lock, the creator included, and writes
  // them with the one writer of `@portal/db` (the review commit and the user_access calls use it too).
  const active = await lockAndLoadAccess(tx, user.id);
  await setPortalRoles(tx, user.id, payload.portalRoleIds);
  const changes = await applyAccessPlan(tx, user.id, planAccess(active, blocks.data), input.actor);
  const granted = changes.map((c) => ({ roleName: c.roleName, id: c.newId }));
  await tx.registration.update({ where: { id: reg.id }, data: { portalUserId: user.id } });
  await auditEffect(tx, input, 'user', {
    entityType: 'PortalUser',
    entityId: String(user.id),
    action: 'USER_CREATED',
    after: {
      registrationId: reg.id,
      username: user.username,
      uuid: user.uuid,
      portalRoleIds: payload.portalRoleIds,
      access: granted,
    },
  });
}
