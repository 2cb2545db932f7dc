/**
 * Who may file proxy access-change requests (000 §6, 001 §6): any active study role in the qualifying
 * study-role list or any portal role in the qualifying portal-role list; the special portal role lets the
 * user submit for all users. The lists are configuration; the spec names only these values.
 */
export const PROXY_STUDY_ROLES = ['LAO Staff'];
export const PROXY_PORTAL_ROLES = ['Administrator'];
export const PROXY_ALL_USERS_PORTAL_ROLES = ['Proxy Access-Change Request User'];

export function proxyCapability(
  portalRoleNames: readonly string[],
  activeStudyRoleNames: readonly string[],
): { canSubmit: boolean; forAllUsers: boolean } {
  const forAllUsers = portalRoleNames.some((r) => PROXY_ALL_USERS_PORTAL_ROLES.includes(r));
  const canSubmit =
    forAllUsers ||
    portalRoleNames.some((r) => PROXY_PORTAL_ROLES.includes(r)) ||
    activeStudyRoleNames.some((r) => PROXY_STUDY_ROLES.includes(r));
  return { canSubmit, forAllUsers };
}
