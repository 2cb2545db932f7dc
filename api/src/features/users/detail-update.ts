/**
 * PUT /rest/secure/user_management/update_user (000 §7; §5 limits and internal users; §4 Saving; §8).
 *
 * Under the user's access lock (`lockUserAccess`, shared with every writer of their access records and
 * portal roles): load, answer 304 when nothing changed, check the fields (422 `fieldErrors` with the spec's
 * keys), write a changed first name, last name, email, username or gecos to the directory entry first
 * (compare-then-set: a retry writes nothing new), then the row, its portal roles and one audit row in the
 * same transaction. The `internal` account type locks those five fields for everyone but an ADMIN (key
 * `internal`). Changing a portal role that grants ADMIN needs ADMIN (403).
 *
 * While the user has an open (unresolved) profile-change request the call answers 422 REQUEST_IN_PROGRESS (000
 * §8 '...because they have an open/unresolved profile-change request.'): its approval would overwrite the name
 * and email, so a reviewer resolves the request first. Checked under the user's lock, after the 304.
 *
 * A save that changes the portal roles is signed USER_ACCESS_EDIT when SIGNATURES=on (docs/decisions.md
 * "Electronic signatures"): the ticket is taken after the checks and before any write (the directory's too),
 * the Signature written after the row's, in the same transaction.
 */
import {
  DIRECTORY_FIELDS,
  type FieldErrors,
  GLOBAL_ERRORS,
  RESOLVED_STATUSES,
  INTERNAL_ACCOUNT_TYPE,
  SIGNATURE_ERRORS,
  type SignatureRef,
  USER_DETAIL_MESSAGES,
  type UserDetail,
  type UserUpdateBodySchema,
} from '@portal/contract';
import {
  ADMIN_SIGNED_ENTITIES,
  type Prisma,
  type PrismaClient,
  lockUserAccess,
  noteProvisioning,
  takeSignatureTicket,
  userAccessEditContent,
  writeSignature,
} from '@portal/db';
import { type DirectoryConfig, PersonFieldsConflictError, writePersonFields } from '@portal/directory';
import type { z } from 'zod';
import { forbidden, notModified, unavailable, unprocessable } from '../../http/errors';
import { recordAudit } from '../../shared/audit-log';
import { referenceCodeErrors } from '../../shared/reference-codes';
import { USER_ENTITY, USER_TX_OPTIONS, type Editor, sameFields } from './detail-common';
import { type Editable, type UserRow, editableOf, loadUserRow, uidNumberOf, userDetailView } from './detail-view';

type Tx = Prisma.TransactionClient;
type UpdateBody = z.output<typeof UserUpdateBodySchema>;

const add = (errors: FieldErrors, field: string, key: string) => {
  errors[field] = [...(errors[field] ?? []), key];
};

/** The checks that need the database: uniqueness, reference codes, portal roles. */
async function checkFields(tx: Tx, editor: Editor, row: UserRow, next: Editable, errors: FieldErrors) {
  const others = { NOT: { id: row.id } };
  if (await tx.portalUser.findFirst({ where: { ...others, email: { equals: next.email, mode: 'insensitive' } } })) {
    add(errors, 'email', 'unique');
  }
  if (
    await tx.portalUser.findFirst({ where: { ...others, username: { equals: next.username, mode: 'insensitive' } } })
  ) {
    add(errors, 'username', 'unique');
  }
  // The directory holds gecos as IA5 (ASCII) text; a stored value is kept as it is, a new one must fit.
  if (next.gecos !== row.gecos && !/^[\x20-\x7E]*$/.test(next.gecos)) add(errors, 'gecos', 'invalid');
  for (const [field, keys] of Object.entries(await referenceCodeErrors(tx, next))) {
    for (const key of keys) add(errors, field, key);
  }

  const held = new Set(row.portalRoles.map((r) => r.portalRoleId));
  const wanted = new Set(next.portalRoleIds);
  const roles = await tx.portalRole.findMany({ where: { id: { in: [...new Set([...held, ...wanted])] } } });
  const changed = roles.filter((r) => held.has(r.id) !== wanted.has(r.id));
  // A role may be kept when it was made inactive, but not newly given.
  if (next.portalRoleIds.some((id) => !held.has(id) && !roles.find((r) => r.id === id && !r.inactive))) {
    add(errors, 'portalRoleIds', 'unknown');
  }
  if (!editor.isAdmin && changed.some((r) => r.permissions.includes('ADMIN'))) throw forbidden();
}

/**
 * Writes the directory fields to the entry first; a conflict there is the field's 422.
 * @throws HttpError 503 with 000 §8's update text when the directory cannot be written (down, timed out): the
 *   row's transaction then rolls back, so nothing is changed anywhere and the save can simply be sent again.
 */
async function writeDirectoryFirst(directory: DirectoryConfig, row: UserRow, next: Editable): Promise<void> {
  if (!row.uuid || !DIRECTORY_FIELDS.some((f) => next[f] !== row[f])) return;
  try {
    await writePersonFields(directory, row.uuid, next);
  } catch (err) {
    if (!(err instanceof PersonFieldsConflictError)) {
      throw Object.assign(unavailable(USER_DETAIL_MESSAGES.updateFailed), { cause: err });
    }
    if (err.reason === 'usernameTaken') throw unprocessable({ username: ['doesntExistInLdap'] });
    if (err.reason === 'emailTaken') throw unprocessable({ email: ['doesntExistInLdap'] });
    throw unprocessable({ username: ['existsInLdap'] });
  }
}

/** The fields a provisioned system holds (issue 41: the SCIM User's userName, name and emails). */
const PROVISIONED_FIELDS = ['firstName', 'lastName', 'email', 'username'] as const;

async function writeRow(tx: Tx, row: UserRow, next: Editable): Promise<void> {
  const { portalRoleIds, ...fields } = next;
  await tx.portalUser.update({ where: { id: row.id }, data: fields });
  const held = row.portalRoles.map((r) => r.portalRoleId);
  await tx.portalUserRole.deleteMany({ where: { portalUserId: row.id, portalRoleId: { notIn: portalRoleIds } } });
  const added = portalRoleIds.filter((id) => !held.includes(id));
  if (added.length) {
    await tx.portalUserRole.createMany({ data: added.map((portalRoleId) => ({ portalUserId: row.id, portalRoleId })) });
  }
}

/** Whether `next` changes the portal roles `held` (the save is then signed USER_ACCESS_EDIT). */
export const changesPortalRoles = (held: readonly number[], next: readonly number[]): boolean => {
  const a = new Set(held);
  const b = new Set(next);
  return a.size !== b.size || [...b].some((id) => !a.has(id));
};

/** How the save is signed: whether signatures are on, and the route's checked ticket for a roles change. */
export interface SaveSigning {
  enabled: boolean;
  signature?: SignatureRef;
}

/**
 * Saves the user. @returns the saved user.
 * @throws HttpError 304 (nothing changed), 403 (ADMIN roles without ADMIN), 404, 422 (`fieldErrors`), 503 (the
 *   directory could not be written; nothing changed).
 */
export async function updateUser(
  prisma: PrismaClient,
  directory: DirectoryConfig,
  editor: Editor,
  body: UpdateBody,
  signing: SaveSigning = { enabled: false },
): Promise<UserDetail> {
  const { id, ...requested } = body;
  const next: Editable = { ...requested, portalRoleIds: [...new Set(requested.portalRoleIds)].sort((a, b) => a - b) };
  return prisma.$transaction(async (tx) => {
    await lockUserAccess(tx, id);
    const row = await loadUserRow(tx, id);
    const before = editableOf(row);
    if (sameFields(before, next)) throw notModified();
    const openRequest = await tx.profileChangeRequest.count({
      where: { portalUserId: id, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
    });
    if (openRequest > 0) throw unprocessable({}, [GLOBAL_ERRORS.requestInProgress]);

    const errors: FieldErrors = {};
    if (row.accountType === INTERNAL_ACCOUNT_TYPE && !editor.isAdmin) {
      for (const f of DIRECTORY_FIELDS) if (next[f] !== row[f]) add(errors, f, 'internal');
    }
    await checkFields(tx, editor, row, next, errors);
    if (Object.keys(errors).length) throw unprocessable(errors);

    const rolesChange = changesPortalRoles(before.portalRoleIds, next.portalRoleIds);
    // The roles may have changed since the route looked (another save): then the ticket is required here.
    if (signing.enabled && rolesChange && !signing.signature) throw unprocessable({}, [SIGNATURE_ERRORS.required]);
    const ticket =
      signing.enabled && rolesChange && signing.signature
        ? await takeSignatureTicket(tx, signing.signature.ticketId, editor.actor.userId ?? -1)
        : undefined;
    if (ticket === null) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);

    await writeDirectoryFirst(directory, row, next);
    await writeRow(tx, row, next);
    // A name, email or username change reaches every provisioned system once this commits (issue 41).
    if (PROVISIONED_FIELDS.some((f) => next[f] !== row[f])) await noteProvisioning(tx, id, null);
    await recordAudit(tx, editor.actor, {
      entityType: USER_ENTITY,
      entityId: id,
      action: 'UPDATED',
      before,
      after: next,
    });
    const saved = await loadUserRow(tx, id);
    if (ticket) {
      // The person's access records are unchanged by this save: their portal roles are what it signs.
      await writeSignature(tx, ticket, {
        entityType: ADMIN_SIGNED_ENTITIES.user,
        entityId: id,
        content: userAccessEditContent(id, [], next.portalRoleIds),
      });
    }
    return userDetailView(tx, saved, await uidNumberOf(directory, saved.uuid));
  }, USER_TX_OPTIONS);
}
