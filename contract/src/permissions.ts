/**
 * Portal permissions (000 §3 Permissions, §6 Roles and permissions).
 * Pure module: no imports, safe for workflow code and the browser.
 */
export const PERMISSIONS = ['ADMIN', 'WRITE_USERS', 'READ_USERS', 'USER', 'SET_OWN_PASSWORD'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Permissions implied by holding another (000 §6: READ_USERS also gives USER and SET_OWN_PASSWORD;
 * ADMIN is all functionality; WRITE_USERS modifies what READ_USERS views).
 */
const IMPLIES: Record<Permission, readonly Permission[]> = {
  ADMIN: ['ADMIN', 'WRITE_USERS', 'READ_USERS', 'USER', 'SET_OWN_PASSWORD'],
  WRITE_USERS: ['WRITE_USERS', 'READ_USERS', 'USER', 'SET_OWN_PASSWORD'],
  READ_USERS: ['READ_USERS', 'USER', 'SET_OWN_PASSWORD'],
  USER: ['USER'],
  SET_OWN_PASSWORD: ['SET_OWN_PASSWORD'],
};

/** Expands the permissions carried by a user's portal roles into the full granted list, sorted by PERMISSIONS order. */
export function grantedPermissions(rolePermissions: readonly Permission[]): Permission[] {
  const granted = new Set<Permission>();
  for (const p of rolePermissions) for (const q of IMPLIES[p]) granted.add(q);
  return PERMISSIONS.filter((p) => granted.has(p));
}

/** 000 §6: a check passes only if all requested names are present. */
export function hasAllPermissions(granted: readonly string[], required: readonly Permission[]): boolean {
  return required.every((p) => granted.includes(p));
}
