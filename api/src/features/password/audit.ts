/**
 * Audit rows of the password lifecycle (the audit trail's `PortalUser` events): who changed, set or reset a
 * password, cleared a password-change time restriction or sent the initial mail. Never a password or a hash.
 */
import type { Deps } from '../../deps';
import { type AuditActor, recordAudit } from '../../shared/audit-log';

export type PasswordAuditAction =
  | 'PASSWORD_CHANGED'
  | 'PASSWORD_SET_INITIAL'
  | 'PASSWORD_RESET'
  | 'PASSWORD_CHANGE_RESTRICTION_CLEARED'
  | 'INITIAL_PASSWORD_EMAIL_SENT';

/** Records one password event of `subjectUserId` by `actor`. */
export async function auditPassword(
  deps: Deps,
  actor: AuditActor,
  subjectUserId: number,
  action: PasswordAuditAction,
  after?: Record<string, unknown>,
): Promise<void> {
  await recordAudit(deps.prisma, actor, { entityType: 'PortalUser', entityId: subjectUserId, action, after });
}
