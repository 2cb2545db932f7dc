/**
 * Row-to-wire mappers more than one feature uses (000 §3, 001 §3): study roles and systems (reference data
 * and configuration), portal roles (configuration and profile), access records (profile and requests) and
 * the Temporal Web UI link (audit trail and requests). A mapper one feature uses lives in its folder.
 */
import type { PortalRole, StudyRole, System, UserAccess } from '@portal/contract';
import type { Prisma } from '@portal/db';
import type { ApiConfig } from '../config';

export type StudyRoleRow = Prisma.StudyRoleGetPayload<{ include: { systems: true } }>;
export type SystemRow = Prisma.SystemAccessGetPayload<object>;
type PortalRoleRow = Prisma.PortalRoleGetPayload<object>;
type UserAccessRow = Prisma.UserAccessGetPayload<object>;

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

/** Where a workflow opens in the Temporal Web UI: its base URL (none: no links) and namespace. */
export interface TemporalUi {
  uiUrl: string | undefined;
  namespace: string;
}

/** The Temporal Web UI settings of the API's config. */
export const temporalUiOf = (cfg: Pick<ApiConfig, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>): TemporalUi => ({
  uiUrl: cfg.TEMPORAL_UI_URL,
  namespace: cfg.TEMPORAL_NAMESPACE,
});

/** Link to a workflow in the Temporal Web UI, or null when no UI is configured. */
export function workflowUrl(uiUrl: string | undefined, namespace: string, workflowId: string): string | null {
  if (!uiUrl) return null;
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
