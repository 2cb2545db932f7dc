/** What the user detail's services share (000 §7 user_management): the audit entity, options, the editor. */
import type { AuthContext } from '../../auth/guard';
import type { AuditActor } from '../../shared/audit-log';

/** The audit trail's entity type of a portal user. */
export const USER_ENTITY = 'PortalUser';

/** A transaction long enough for a lock wait and one directory write, never unbounded. */
export const USER_TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

/** Who saves: the audit actor and whether they hold ADMIN (000 §5 internal users). */
export interface Editor {
  actor: AuditActor;
  isAdmin: boolean;
}

/** The editor of a signed-in session. */
export const editorOf = (auth: AuthContext): Editor => ({
  actor: { userId: auth.userId, username: auth.username },
  isAdmin: auth.permissions.includes('ADMIN'),
});

/** Equality of two flat records of strings, nulls and sorted number lists. */
export function sameFields<T extends object>(a: T, b: T): boolean {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(a).sort());
}
