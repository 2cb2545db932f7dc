import { useQuery, type QueryClient } from '@tanstack/react-query';
import type {
  OutstandingRequestRef,
  PendingUserRef,
  PortalRole,
  StudyRoleListItem,
  StudyRoleRef,
  SystemDetail,
  UserRef,
} from '@portal/contract';
import { apiGet } from '../app/api';
import { referenceKeys } from '../shared/referenceData';

/** The configuration calls of 001 §7 (Portal roles, Study roles, Systems) as query hooks and paths. */
export const CONFIG_PATHS = {
  portalRoles: '/rest/secure/system_mgmt/portal_roles',
  studyRoles: '/rest/secure/system_mgmt/study_role',
  systems: '/rest/secure/system_mgmt/system_access',
} as const;

/** Where each tab and editor lives (001 §2.12). */
export const CONFIG_ROUTES = {
  tab: (tab: 'portalRoles' | 'studyRoles' | 'systems') => `/app/configure/?tab=${tab}`,
  portalRole: (id: number | 'new') => `/app/configure/roles/${id}`,
  studyRole: (id: number | 'new') => `/app/configure/study-roles/${id}`,
  system: (id: number | 'new') => `/app/configure/systems/${id}`,
};

export const configKeys = {
  all: ['configure'] as const,
  portalRoles: ['configure', 'portalRoles'] as const,
  portalRole: (id: number) => ['configure', 'portalRoles', id] as const,
  studyRoles: ['configure', 'studyRoles'] as const,
  studyRole: (id: number) => ['configure', 'studyRoles', id] as const,
  systems: ['configure', 'systems'] as const,
  system: (id: number) => ['configure', 'systems', id] as const,
};

/** After a change: the configuration lists and the public study-role / system lists are stale. */
export function invalidateConfiguration(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: configKeys.all });
  void queryClient.invalidateQueries({ queryKey: referenceKeys.studyRoles });
  void queryClient.invalidateQueries({ queryKey: referenceKeys.systems });
  void queryClient.invalidateQueries({ queryKey: ['audit'] });
}

/** GET .../portal_roles/getAll?includeBasic=true: every portal role, active or not. */
export function usePortalRoles() {
  return useQuery({
    queryKey: configKeys.portalRoles,
    queryFn: ({ signal }) => apiGet<PortalRole[]>(`${CONFIG_PATHS.portalRoles}/getAll`, { includeBasic: true }, signal),
  });
}

export function usePortalRole(id: number | null) {
  return useQuery({
    queryKey: configKeys.portalRole(id ?? 0),
    queryFn: ({ signal }) => apiGet<PortalRole>(`${CONFIG_PATHS.portalRoles}/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

export function useStudyRolesAdmin() {
  return useQuery({
    queryKey: configKeys.studyRoles,
    queryFn: ({ signal }) => apiGet<StudyRoleListItem[]>(`${CONFIG_PATHS.studyRoles}/`, undefined, signal),
  });
}

export function useStudyRole(id: number | null) {
  return useQuery({
    queryKey: configKeys.studyRole(id ?? 0),
    queryFn: ({ signal }) => apiGet<StudyRoleListItem>(`${CONFIG_PATHS.studyRoles}/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

export function useSystemsAdmin() {
  return useQuery({
    queryKey: configKeys.systems,
    queryFn: ({ signal }) => apiGet<SystemDetail[]>(`${CONFIG_PATHS.systems}/`, undefined, signal),
  });
}

export function useSystem(id: number | null) {
  return useQuery({
    queryKey: configKeys.system(id ?? 0),
    queryFn: ({ signal }) => apiGet<SystemDetail>(`${CONFIG_PATHS.systems}/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

/** The in-use lists the delete dialogs load (001 §7 inUseBy* calls). */
export const inUse = {
  portalRoleUsers: (id: number) => apiGet<UserRef[]>(`${CONFIG_PATHS.portalRoles}/${id}/inUseByUser`),
  studyRole: async (id: number) => {
    const base = `${CONFIG_PATHS.studyRoles}/${id}`;
    const [users, pending, requests] = await Promise.all([
      apiGet<UserRef[]>(`${base}/inUseByUser`),
      apiGet<PendingUserRef[]>(`${base}/inUseByPendingUser`),
      apiGet<OutstandingRequestRef[]>(`${base}/inUseByOutstandingUserAccessMod`),
    ]);
    return { users, pending, requests };
  },
  system: async (id: number) => {
    const base = `${CONFIG_PATHS.systems}/${id}`;
    const [studyRoles, users, pending, requests] = await Promise.all([
      apiGet<StudyRoleRef[]>(`${base}/inUseByStudyRole`),
      apiGet<UserRef[]>(`${base}/inUseByUser`),
      apiGet<PendingUserRef[]>(`${base}/inUseByPendingUser`),
      apiGet<OutstandingRequestRef[]>(`${base}/inUseByOutstandingUserAccessMod`),
    ]);
    return { studyRoles, users, pending, requests };
  },
};

/** A route's `:id`: null for 'new', NaN-safe. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || raw === 'new') return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : -1;
}

/** '1 active user references this portal role.' / '3 active users reference this portal role.' */
export function countSentence(n: number, singular: string, plural: string, what: string): string {
  return `${n} ${n === 1 ? `${singular} references` : `${plural} reference`} ${what}.`;
}
