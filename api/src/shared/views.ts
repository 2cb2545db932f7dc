/** Maps database rows to the wire shapes of the contract (000 §3, 001 §3). */
import type {
  AuditEvent,
  OutstandingRequestRef,
  PortalRole,
  Site,
  StudyRole,
  StudyRoleListItem,
  System,
  SystemDetail,
  UserAccess,
  UserRef,
} from '@portal/contract';
import type { Prisma } from '@portal/db';

type SiteRow = Prisma.SiteGetPayload<object>;
type StudyRoleRow = Prisma.StudyRoleGetPayload<{ include: { systems: true } }>;
type SystemRow = Prisma.SystemAccessGetPayload<object>;
type PortalRoleRow = Prisma.PortalRoleGetPayload<object>;
type UserAccessRow = Prisma.UserAccessGetPayload<object>;
type StudyRoleWithSystemsRow = Prisma.StudyRoleGetPayload<{ include: { systems: { include: { system: true } } } }>;
type UserRow = Prisma.PortalUserGetPayload<object>;
type AuditRow = Prisma.AuditEventGetPayload<object>;
type RequestWithSubjectRow = Prisma.AccessModRequestGetPayload<{ include: { subject: true } }>;

export const siteView = (s: SiteRow): Site => ({
  siteCode: s.siteCode,
  siteName: s.siteName,
  siteStatus: s.siteStatus,
  siteType: s.siteType,
  type: s.siteType,
  description: s.description,
  otherIdentifier: s.laoCode,
});

export const studyRoleView = (r: StudyRoleRow): StudyRole => ({
  id: r.id,
  roleName: r.roleName,
  description: r.description,
  siteRequired: r.siteRequired,
  studyRequired: r.studyRequired,
  allowAOs: r.allowAOs,
  allowLAOs: r.allowLAOs,
  systemAccessIds: r.systems.map((s) => s.systemId).sort((a, b) => a - b),
  inactive: r.inactive,
  sort: r.sort,
});

export const systemView = (s: SystemRow): System => ({
  id: s.id,
  systemName: s.systemName,
  description: s.description,
  inactive: s.inactive,
  sort: s.sort,
});

export const portalRoleView = (r: PortalRoleRow): PortalRole => ({
  id: r.id,
  description: r.description,
  permissions: r.permissions,
  inactive: r.inactive,
  sort: r.sort,
});

export const userAccessView = (a: UserAccessRow): UserAccess => ({
  id: a.id,
  portalUserId: a.portalUserId,
  roleName: a.roleName,
  inactive: a.inactive,
  siteCodes: a.siteCodes,
  laoIds: a.laoIds,
  studyNames: a.studyNames,
  systemAccessIds: a.systemAccessIds,
  versionno: a.versionno,
  priorAccessControlId: a.priorAccessControlId,
  originalRevisionNumber: a.originalRevisionNumber,
  createdBy: a.createdBy,
  lastModifiedBy: a.lastModifiedBy,
  sysdat: a.sysdat.toISOString(),
  dchng: a.dchng.toISOString(),
});

/** Link to a workflow in the Temporal Web UI, or null when no UI is configured. */
export function workflowUrl(uiUrl: string | undefined, namespace: string, workflowId: string): string | null {
  if (!uiUrl) return null;
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

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
export const userRefView = (u: UserRow): UserRef => ({
  id: u.id,
  username: u.username,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
});

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

const NAME_FIELDS: Record<string, string> = {
  PortalRole: 'description',
  StudyRole: 'roleName',
  SystemAccess: 'systemName',
};

/** The record's name as the audit row's snapshots give it (role name, system name), or a numbered label. */
function auditEntityName(r: AuditRow): string | null {
  const field = NAME_FIELDS[r.entityType];
  for (const snapshot of field ? [r.after, r.before] : []) {
    const value = (snapshot as Record<string, unknown> | null)?.[field!];
    if (typeof value === 'string') return value;
  }
  if (r.entityType === 'AccessModRequest') return `Request #${r.entityId}`;
  if (r.entityType === 'UserAccess' || r.entityType === 'PortalUser') return `User #${r.entityId}`;
  return null;
}

/** An audit row on the wire, with the Temporal Web UI link of its workflow (if any). */
export function auditEventView(r: AuditRow, temporal: { uiUrl: string | undefined; namespace: string }): AuditEvent {
  return {
    id: r.id.toString(),
    at: r.at.toISOString(),
    actorUserId: r.actorUserId,
    actorUsername: r.actorUsername,
    entityType: r.entityType,
    entityId: r.entityId,
    entityName: auditEntityName(r),
    action: r.action,
    before: r.before ?? null,
    after: r.after ?? null,
    workflowId: r.workflowId,
    workflowUrl: r.workflowId ? workflowUrl(temporal.uiUrl, temporal.namespace, r.workflowId) : null,
  };
}
