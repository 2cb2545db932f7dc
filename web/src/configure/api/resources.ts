import type {
  OutstandingRequestRef,
  PendingUserRef,
  PortalRole,
  StudyRoleListItem,
  StudyRoleRef,
  SystemDetail,
  UserRef,
} from '@portal/contract';
import { apiGet } from '../../lib/apiClient';

/**
 * The three configuration resources of 001 §7 (portal roles, study roles, systems): each one's URLs, which
 * differ in shape (the portal roles' toggle puts the action before the id, systems end with a slash), and its
 * in-use look-ups. The endpoint files (`getConfigList.ts`, `saveConfigRecord.ts`, ...) take one of these.
 */

/** What every configuration record has. */
export interface ConfigRecord {
  id: number;
  inactive: boolean;
  sort: number;
}

export type ToggleAction = 'activate' | 'deactivate';

export interface ConfigResource<R extends ConfigRecord, Refs> {
  /** The key under ['configure'] of its queries. */
  key: 'portalRoles' | 'studyRoles' | 'systems';
  list: { url: string; query?: Record<string, string | number | boolean> };
  record: (id: number) => string;
  create: string;
  /** PUT target of an update (portal roles carry the id in the body). */
  update: (id: number) => string;
  toggle: (id: number, action: ToggleAction) => string;
  /** The in-use look-ups of the delete dialog (001 §7 inUseBy*), loaded together. */
  inUse: (id: number) => Promise<Refs>;
  /** Never set: carries the record type the resource answers with, so the endpoint files infer it. */
  readonly recordType?: R;
}

const PORTAL_ROLES = '/rest/secure/system_mgmt/portal_roles';
const STUDY_ROLES = '/rest/secure/system_mgmt/study_role';
const SYSTEMS = '/rest/secure/system_mgmt/system_access';

export interface StudyRoleRefs {
  users: UserRef[];
  pending: PendingUserRef[];
  requests: OutstandingRequestRef[];
}

export interface SystemRefs extends StudyRoleRefs {
  studyRoles: StudyRoleRef[];
}

export const portalRoleResource: ConfigResource<PortalRole, UserRef[]> = {
  key: 'portalRoles',
  // getAll?includeBasic=true: every portal role, active or not.
  list: { url: `${PORTAL_ROLES}/getAll`, query: { includeBasic: true } },
  record: (id) => `${PORTAL_ROLES}/${id}`,
  create: `${PORTAL_ROLES}/create`,
  update: () => `${PORTAL_ROLES}/update`,
  toggle: (id, action) => `${PORTAL_ROLES}/${action}/${id}`,
  inUse: (id) => apiGet<UserRef[]>(`${PORTAL_ROLES}/${id}/inUseByUser`),
};

export const studyRoleResource: ConfigResource<StudyRoleListItem, StudyRoleRefs> = {
  key: 'studyRoles',
  list: { url: `${STUDY_ROLES}/` },
  record: (id) => `${STUDY_ROLES}/${id}`,
  create: `${STUDY_ROLES}/`,
  update: (id) => `${STUDY_ROLES}/${id}`,
  toggle: (id, action) => `${STUDY_ROLES}/${id}/${action}`,
  inUse: async (id) => {
    const base = `${STUDY_ROLES}/${id}`;
    const [users, pending, requests] = await Promise.all([
      apiGet<UserRef[]>(`${base}/inUseByUser`),
      apiGet<PendingUserRef[]>(`${base}/inUseByPendingUser`),
      apiGet<OutstandingRequestRef[]>(`${base}/inUseByOutstandingUserAccessMod`),
    ]);
    return { users, pending, requests };
  },
};

export const systemResource: ConfigResource<SystemDetail, SystemRefs> = {
  key: 'systems',
  list: { url: `${SYSTEMS}/` },
  record: (id) => `${SYSTEMS}/${id}`,
  create: `${SYSTEMS}/`,
  update: (id) => `${SYSTEMS}/${id}`,
  toggle: (id, action) => `${SYSTEMS}/${id}/${action}/`,
  inUse: async (id) => {
    const base = `${SYSTEMS}/${id}`;
    const [studyRoles, users, pending, requests] = await Promise.all([
      apiGet<StudyRoleRef[]>(`${base}/inUseByStudyRole`),
      apiGet<UserRef[]>(`${base}/inUseByUser`),
      apiGet<PendingUserRef[]>(`${base}/inUseByPendingUser`),
      apiGet<OutstandingRequestRef[]>(`${base}/inUseByOutstandingUserAccessMod`),
    ]);
    return { studyRoles, users, pending, requests };
  },
};
