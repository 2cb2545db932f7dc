/**
 * What references a portal role, study role or system (001 §3 "Role in-use result", "Items that can
 * reference a system": studyRoles, users, registrations, accessChangeRequests; 001 §7 inUseBy* calls).
 * Users count when they are active and, for study roles and systems, hold an active access record with it.
 * Outstanding requests are the unresolved access-modification requests whose blocks name it; pending users
 * the PENDING registrations whose blocks name it.
 */
import type { OutstandingRequestRef, PendingUserRef, StudyRoleRef, UserRef } from '@portal/contract';
import { RESOLVED_STATUSES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { Tx } from './common';
import { outstandingRequestRefView, userRefView } from './views';

type Db = PrismaClient | Tx;
const userOrder = [{ lastName: 'asc' as const }, { firstName: 'asc' as const }, { id: 'asc' as const }];

/** Active users holding the portal role. */
export async function usersOfPortalRole(db: Db, portalRoleId: number): Promise<UserRef[]> {
  const users = await db.portalUser.findMany({
    where: { inactive: false, portalRoles: { some: { portalRoleId } } },
    orderBy: userOrder,
  });
  return users.map(userRefView);
}

/** Active users with an active access record for the study role (records name their role). */
export async function usersOfStudyRole(db: Db, roleName: string): Promise<UserRef[]> {
  const users = await db.portalUser.findMany({
    where: { inactive: false, userAccesses: { some: { roleName, inactive: false } } },
    orderBy: userOrder,
  });
  return users.map(userRefView);
}

/** Active users with an active access record granting the system. */
export async function usersOfSystem(db: Db, systemId: number): Promise<UserRef[]> {
  const users = await db.portalUser.findMany({
    where: { inactive: false, userAccesses: { some: { systemAccessIds: { has: systemId }, inactive: false } } },
    orderBy: userOrder,
  });
  return users.map(userRefView);
}

/** Study roles (active or not) that have the system as a default application. */
export async function studyRolesOfSystem(db: Db, systemId: number): Promise<StudyRoleRef[]> {
  const roles = await db.studyRole.findMany({
    where: { systems: { some: { systemId } } },
    orderBy: [{ sort: 'asc' }, { roleName: 'asc' }],
  });
  return roles.map((r) => ({ id: r.id, roleName: r.roleName, inactive: r.inactive }));
}

/**
 * Pending users (001 §2.1-§2.4: PENDING public and proxy registrations) whose requested blocks name the
 * study role or system (jsonb containment), oldest first.
 */
async function pendingUsers(db: Db, block: Record<string, unknown>): Promise<PendingUserRef[]> {
  const pattern = JSON.stringify([block]);
  return db.$queryRaw<PendingUserRef[]>`
    SELECT id, "firstName", "lastName", email FROM "Registration"
    WHERE "registrationStatus" = 'PENDING' AND "accessControls" @> ${pattern}::jsonb
    ORDER BY sysdat ASC, id ASC`;
}

export const pendingUsersOfStudyRole = (db: Db, roleName: string) => pendingUsers(db, { roleName });
export const pendingUsersOfSystem = (db: Db, systemId: number) => pendingUsers(db, { systemAccessIds: [systemId] });

/** Unresolved access-modification requests with a block matching `block` (jsonb containment). */
async function outstandingRequests(db: Db, block: Record<string, unknown>): Promise<OutstandingRequestRef[]> {
  const pattern = JSON.stringify([block]);
  const resolved = [...RESOLVED_STATUSES];
  const ids = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM "AccessModRequest"
    WHERE "requestStatus"::text <> ALL(${resolved}::text[]) AND "accessControls" @> ${pattern}::jsonb`;
  if (ids.length === 0) return [];
  const rows = await db.accessModRequest.findMany({
    where: { id: { in: ids.map((r) => r.id) } },
    include: { subject: true },
    orderBy: [{ sysdat: 'asc' }, { id: 'asc' }],
  });
  return rows.map(outstandingRequestRefView);
}

export const outstandingRequestsOfStudyRole = (db: Db, roleName: string) => outstandingRequests(db, { roleName });
export const outstandingRequestsOfSystem = (db: Db, systemId: number) =>
  outstandingRequests(db, { systemAccessIds: [systemId] });
