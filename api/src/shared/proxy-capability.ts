/**
 * Who may file proxy access-change requests (000 §6, 001 §6, §9): any active study role in the qualifying
 * study-role list or any portal role in the qualifying portal-role list; a portal role in the special list
 * lets the user submit for all users. The lists are configuration (PROXY_STUDY_ROLES, PROXY_PORTAL_ROLES,
 * PROXY_ALL_USERS_PORTAL_ROLES in api/src/config.ts); their defaults are the names the spec gives.
 */
import type { ApiConfig } from '../config';

/** The configured lists, by name (study role `roleName`, portal role `description`). */
export interface ProxyRules {
  studyRoles: readonly string[];
  portalRoles: readonly string[];
  allUsersPortalRoles: readonly string[];
}

/** The lists of the validated configuration. */
export function proxyRulesOf(
  cfg: Pick<ApiConfig, 'PROXY_STUDY_ROLES' | 'PROXY_PORTAL_ROLES' | 'PROXY_ALL_USERS_PORTAL_ROLES'>,
): ProxyRules {
  return {
    studyRoles: cfg.PROXY_STUDY_ROLES,
    portalRoles: cfg.PROXY_PORTAL_ROLES,
    allUsersPortalRoles: cfg.PROXY_ALL_USERS_PORTAL_ROLES,
  };
}

/** The capability of a user holding `portalRoleNames` (active) and `activeStudyRoleNames` (current records). */
export function proxyCapability(
  rules: ProxyRules,
  portalRoleNames: readonly string[],
  activeStudyRoleNames: readonly string[],
): { canSubmit: boolean; forAllUsers: boolean } {
  const forAllUsers = portalRoleNames.some((r) => rules.allUsersPortalRoles.includes(r));
  const canSubmit =
    forAllUsers ||
    portalRoleNames.some((r) => rules.portalRoles.includes(r)) ||
    activeStudyRoleNames.some((r) => rules.studyRoles.includes(r));
  return { canSubmit, forAllUsers };
}
