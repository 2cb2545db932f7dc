/**
 * The API's writer of a user's access records (000 §7 User access records; REQUEST-LIFECYCLE rule 7), used by
 * every user_access call that writes (POST, PUT /{id}, PUT /user/{portalUserId}). One transaction: the user's
 * access lock and their active records (`lockAndLoadAccess`, the lock every writer takes, the review commit
 * too), REQUEST_IN_PROGRESS while an access-change request of the user is open (000 §8), the checks that need
 * the stored rows (`checkAccessWrite`: 422 fieldErrors, STALE_VERSION), 304 when nothing changes, then the
 * versioned write (`writeAccess`, the same code the worker's review commit runs) and one audit row.
 */
import {
  type FieldErrors,
  GLOBAL_ERRORS,
  RESOLVED_STATUSES,
  SIGNATURE_ERRORS,
  type SignatureRef,
} from '@portal/contract';
import {
  type AccessChange,
  type AccessWriteRequest,
  type PrismaClient,
  ADMIN_SIGNED_ENTITIES,
  checkAccessWrite,
  lockAndLoadAccess,
  signedAccessOf,
  takeSignatureTicket,
  userAccessEditContent,
  writeAccess,
  writeSignature,
  writesSomething,
} from '@portal/db';
import type { AuthContext } from '../auth/guard';
import { notFound, notModified, unprocessable } from '../http/errors';
import { recordAudit } from './audit-log';

/** A lock wait plus a few writes, never unbounded. */
const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

export interface SaveAccessOptions {
  /** The fieldErrors key prefix of the records (`userAccesses` for lists; single-record calls rename it away). */
  keyPrefix: string;
  /** The audit row's action, e.g. 'ACCESS_CREATED'. */
  action: string;
  /** The 404 text when the user does not exist. */
  notFoundText: string;
  /** A single-record call: field keys name the body's fields (`roleName`), not `<keyPrefix>[0].roleName`. */
  single?: boolean;
  /**
   * The edit's electronic signature (USER_ACCESS_EDIT; docs/decisions.md "Electronic signatures"), when
   * SIGNATURES=on: taken before the write, written after it, in its transaction.
   */
  signature?: SignatureRef;
}

/** True when `portalUserId` has an access-change request that is not APPROVED or REJECTED. */
export async function hasOpenAccessRequest(
  db: Pick<PrismaClient, 'accessModRequest'>,
  portalUserId: number,
): Promise<boolean> {
  const open = await db.accessModRequest.count({
    where: { subjectUserId: portalUserId, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
  });
  return open > 0;
}

/**
 * Writes `want` for `portalUserId`. @returns the changed records (new versions) for the answer.
 * @throws HttpError 404 (no such user), 422 (REQUEST_IN_PROGRESS, field errors, STALE_VERSION), 304.
 */
export async function saveUserAccess(
  prisma: PrismaClient,
  actor: AuthContext,
  portalUserId: number,
  want: AccessWriteRequest,
  opts: SaveAccessOptions,
): Promise<AccessChange[]> {
  return prisma.$transaction(async (tx) => {
    if (!(await tx.portalUser.findUnique({ where: { id: portalUserId }, select: { id: true } }))) {
      throw notFound(opts.notFoundText);
    }
    const before = await lockAndLoadAccess(tx, portalUserId);
    if (await hasOpenAccessRequest(tx, portalUserId)) throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);
    const check = await checkAccessWrite(tx, portalUserId, want, {
      keyPrefix: opts.keyPrefix,
      isAdmin: actor.permissions.includes('ADMIN'),
    });
    if (Object.keys(check.fieldErrors).length || check.globalErrors.length) {
      const fieldErrors = opts.single ? unindexed(check.fieldErrors, opts.keyPrefix) : check.fieldErrors;
      throw unprocessable(fieldErrors, check.globalErrors);
    }
    if (!writesSomething(check)) throw notModified();
    const ticket = opts.signature ? await takeSignatureTicket(tx, opts.signature.ticketId, actor.userId) : null;
    if (opts.signature && !ticket) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);
    const { changes } = await writeAccess(tx, portalUserId, check, { username: actor.username });
    await recordAudit(tx, actor, {
      entityType: 'UserAccess',
      entityId: portalUserId,
      action: opts.action,
      before: before.map((r) => ({ id: r.id, roleName: r.roleName, versionno: r.versionno })),
      after: { changes },
    });
    if (ticket) {
      const written = await tx.userAccess.findMany({ where: { id: { in: changes.map((c) => c.newId) } } });
      const removed = new Map(changes.map((c) => [c.newId, c.inactive]));
      const roles = await tx.portalUserRole.findMany({ where: { portalUserId }, select: { portalRoleId: true } });
      await writeSignature(tx, ticket, {
        entityType: ADMIN_SIGNED_ENTITIES.user,
        entityId: portalUserId,
        content: userAccessEditContent(
          portalUserId,
          written.map((r) => signedAccessOf(r, removed.get(r.id) ?? false)),
          roles.map((r) => r.portalRoleId),
        ),
      });
    }
    return changes;
  }, TX_OPTIONS);
}

/** Field errors of a single-record call: `<prefix>[0].roleName` becomes `roleName` (the record is the body). */
export function unindexed(fieldErrors: FieldErrors, keyPrefix: string): FieldErrors {
  const head = `${keyPrefix}[0].`;
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([k, v]) => [k.startsWith(head) ? k.slice(head.length) : k, v]),
  );
}
