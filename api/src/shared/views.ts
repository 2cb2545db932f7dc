/**
 * Row-to-wire mappers more than one feature uses (000 §3, 001 §3): study roles and systems (reference data
 * and configuration), portal roles (configuration and profile), access records (profile and requests) and
 * the Temporal Web UI link (audit trail and requests). A mapper one feature uses lives in its folder.
 */
import {
  type PortalRole,
  type StudyRole,
  type System,
  type UserAccess,
  type UserSite,
  USER_ACCESS_ENTITY,
  dayIn,
  endDayOf,
  endsWithin,
} from '@portal/contract';
import { type Prisma, type PrismaClient, accessDateSettings } from '@portal/db';
import type { ApiConfig } from '../config';

export type StudyRoleRow = Prisma.StudyRoleGetPayload<{ include: { systems: true } }>;
export type SystemRow = Prisma.SystemAccessGetPayload<object>;
type PortalRoleRow = Prisma.PortalRoleGetPayload<object>;
type UserAccessRow = Prisma.UserAccessGetPayload<object>;
type Db = PrismaClient | Prisma.TransactionClient;

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

/** The fields `keys` names of `row`, for a wire shape that is a plain subset of its row. */
export const pick = <T extends object, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;

export const systemView = (s: SystemRow): System => pick(s, ['id', 'systemName', 'description', 'inactive', 'sort']);

export const portalRoleView = (r: PortalRoleRow): PortalRole =>
  pick(r, ['id', 'description', 'permissions', 'inactive', 'sort']);

/**
 * The sites an AO list and an LAO list name, in 000 §3's API form: AOs first, then LAOs with their own site code
 * (from `laoSiteCodes`: LAO code → site code; an LAO no longer listed keeps its code).
 */
export const siteListOf = (
  siteCodes: readonly string[],
  laoIds: readonly string[],
  laoSiteCodes: ReadonlyMap<string, string>,
): UserSite[] => [
  ...siteCodes.map((siteCode) => ({ type: 'AO' as const, siteCode, otherIdentifier: null })),
  ...laoIds.map((lao) => ({ type: 'LAO' as const, siteCode: laoSiteCodes.get(lao) ?? lao, otherIdentifier: lao })),
];

/** The site codes of the LAOs `laoIds` name (LAO code → site code), in one query. */
export async function loadLaoSiteCodes(db: Db, laoIds: Iterable<string>): Promise<Map<string, string>> {
  const codes = [...new Set(laoIds)];
  if (!codes.length) return new Map();
  const laos = await db.site.findMany({ where: { laoCode: { in: codes } }, select: { siteCode: true, laoCode: true } });
  return new Map(laos.map((s) => [s.laoCode!, s.siteCode]));
}

/**
 * A record's end date (issue 25) and whether it ends within ACCESS_EXPIRY_NOTICE_DAYS of today in
 * NETWORK_TIME_ZONE (the screens mark those).
 */
export function accessEndView(
  end: Date | null,
  now = new Date(),
): { accessEndDate: string | null; accessEndsSoon: boolean } {
  const accessEndDate = endDayOf(end);
  if (accessEndDate === null) return { accessEndDate, accessEndsSoon: false };
  const { NETWORK_TIME_ZONE, ACCESS_EXPIRY_NOTICE_DAYS } = accessDateSettings();
  return {
    accessEndDate,
    accessEndsSoon: endsWithin(accessEndDate, dayIn(NETWORK_TIME_ZONE, now), ACCESS_EXPIRY_NOTICE_DAYS),
  };
}

/** One access record in the shape of 000 §3, with `laoSiteCodes` from `loadLaoSiteCodes`. */
export const userAccessView = (a: UserAccessRow, laoSiteCodes: ReadonlyMap<string, string>): UserAccess => ({
  id: a.id,
  portalUserId: a.portalUserId,
  entity: USER_ACCESS_ENTITY,
  formId: a.sourceRequestId,
  roleName: a.roleName,
  inactive: a.inactive,
  sites: siteListOf(a.siteCodes, a.laoIds, laoSiteCodes),
  siteCodes: a.siteCodes,
  laoIds: a.laoIds,
  studyNames: a.studyNames,
  systemAccessIds: a.systemAccessIds,
  ...accessEndView(a.accessEndDate),
  versionno: a.versionno,
  priorAccessControlId: a.priorAccessControlId,
  originalRevisionNumber: a.originalRevisionNumber,
  createdBy: a.createdBy,
  lastModifiedBy: a.lastModifiedBy,
  sysdat: a.sysdat.toISOString(),
  dchng: a.dchng.toISOString(),
});

/** Access records in the shape of 000 §3 (the LAOs' site codes read once for all of them). */
export async function userAccessViews(db: Db, rows: readonly UserAccessRow[]): Promise<UserAccess[]> {
  const laoSiteCodes = await loadLaoSiteCodes(
    db,
    rows.flatMap((r) => r.laoIds),
  );
  return rows.map((r) => userAccessView(r, laoSiteCodes));
}

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
