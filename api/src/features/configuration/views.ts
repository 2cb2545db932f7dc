/** Maps rows to the configuration screens' wire shapes (001 §3 Study role, System, Role in-use result). */
import type { OutstandingRequestRef, StudyRoleListItem, SystemDetail, UserRef } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { type SystemRow, pick, studyRoleView, systemView } from '../../shared/views';

type StudyRoleWithSystemsRow = Prisma.StudyRoleGetPayload<{ include: { systems: { include: { system: true } } } }>;
type UserRow = Prisma.PortalUserGetPayload<object>;
type RequestWithSubjectRow = Prisma.AccessModRequestGetPayload<{ include: { subject: true } }>;

/** 001 §2.12: a study role with the names of its default systems (the fixed one first, then as the systems list). */
export function studyRoleListItemView(r: StudyRoleWithSystemsRow): StudyRoleListItem {
  const systems = [...r.systems]
    .map((s) => s.system)
    .sort((a, b) => Number(b.fixed) - Number(a.fixed) || a.sort - b.sort || a.systemName.localeCompare(b.systemName));
  return { ...studyRoleView(r), defaultApplicationNames: systems.map((s) => s.systemName) };
}

/** 001 §3 System for the configuration screens, with whether it is the fixed one. */
export const systemDetailView = (s: SystemRow): SystemDetail => ({ ...systemView(s), fixed: s.fixed });

/** A user in an in-use list (001 §3 Role in-use result). */
export const userRefView = (u: UserRow): UserRef => pick(u, ['id', 'username', 'firstName', 'lastName', 'email']);

/** An outstanding request in an in-use list (001 §7 inUseByOutstandingUserAccessMod). */
export const outstandingRequestRefView = (r: RequestWithSubjectRow): OutstandingRequestRef => ({
  id: r.id,
  requestType: r.requestType,
  requestStatus: r.requestStatus,
  subjectUserId: r.subjectUserId,
  firstName: r.subject.firstName,
  lastName: r.subject.lastName,
  email: r.subject.email,
  sysdat: r.sysdat.toISOString(),
});
