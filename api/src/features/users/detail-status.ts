/**
 * PUT /rest/secure/user_management/activate_user/{id} and deactivate_user/{id} (000 §4 User status, §7).
 * Under the user's access lock, in one transaction: the flag, (on deactivation) the end of every session of
 * the user, so they are signed out at once, and one audit row. 304 when the user already has that status.
 * An editor cannot change their own status (they would lock themself out). Signed USER_STATUS when
 * SIGNATURES=on (docs/decisions.md "Electronic signatures"): the ticket taken before the writes, the Signature
 * written after them, in the same transaction.
 */
import { SIGNATURE_ERRORS, type SignatureRef, USER_DETAIL_MESSAGES, type UserDetail } from '@portal/contract';
import {
  ADMIN_SIGNED_ENTITIES,
  type PrismaClient,
  lockUserAccess,
  noteProvisioning,
  revokeSsoAccess,
  takeSignatureTicket,
  userStatusContent,
  writeSignature,
} from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import { forgetSessions } from '../../auth/session-cache';
import { notModified, unprocessable } from '../../http/errors';
import { recordAudit } from '../../shared/audit-log';
import { type Editor, USER_ENTITY, USER_TX_OPTIONS } from './detail-common';
import { loadUserRow, uidNumberOf, userDetailView } from './detail-view';

export type StatusAction = 'activate' | 'deactivate';

/**
 * Sets the user's status. `signature`: the route's checked ticket (SIGNATURES=on).
 * @returns the user. @throws HttpError 304, 404, 422 (own account, SIGNATURE_INVALID).
 */
export async function setUserStatus(
  prisma: PrismaClient,
  directory: DirectoryConfig,
  editor: Editor,
  id: number,
  action: StatusAction,
  signature?: SignatureRef,
): Promise<UserDetail> {
  if (id === editor.actor.userId) throw unprocessable({}, [USER_DETAIL_MESSAGES.ownStatus]);
  const inactive = action === 'deactivate';
  const detail = await prisma.$transaction(async (tx) => {
    await lockUserAccess(tx, id);
    const row = await loadUserRow(tx, id);
    if (row.inactive === inactive) throw notModified();
    const signer = editor.actor.userId;
    const ticket = signature && signer !== null ? await takeSignatureTicket(tx, signature.ticketId, signer) : undefined;
    if (signature && signer === null) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);
    if (ticket === null) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);
    await tx.portalUser.update({ where: { id }, data: { inactive } });
    const ended = inactive ? (await tx.session.deleteMany({ where: { portalUserId: id } })).count : 0;
    // A deactivated person keeps no single sign-on grant (issue 22).
    if (inactive) await revokeSsoAccess(tx, id, null);
    // Every provisioned system converges on the flag once this commits (issue 41).
    await noteProvisioning(tx, id, null);
    await recordAudit(tx, editor.actor, {
      entityType: USER_ENTITY,
      entityId: id,
      action: inactive ? 'DEACTIVATED' : 'ACTIVATED',
      before: { inactive: row.inactive },
      after: inactive ? { inactive, sessionsEnded: ended } : { inactive },
    });
    if (ticket) {
      await writeSignature(tx, ticket, {
        entityType: ADMIN_SIGNED_ENTITIES.user,
        entityId: id,
        content: userStatusContent(id, inactive),
      });
    }
    return userDetailView(tx, { ...row, inactive }, await uidNumberOf(directory, row.uuid));
  }, USER_TX_OPTIONS);
  // This process's cached sessions of the user end before the answer (others hear PostgreSQL's notification).
  forgetSessions(prisma, { user: id });
  return detail;
}
