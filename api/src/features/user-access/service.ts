/**
 * The user access record calls' services (000 §7 User access records, §3 User access record): reads of every
 * record, one record, one revision of a record's chain and one user's active records; the writes go through
 * the shared writer (`api/src/shared/access-records.ts`: the user's lock, REQUEST_IN_PROGRESS, the rules,
 * versioning), the same code the review commit runs in the worker. With SIGNATURES=on each write is signed
 * USER_ACCESS_EDIT (`signature`: the route's checked ticket, taken and written in the write's transaction).
 */
import {
  type CreateUserAccessBodySchema,
  type ReplaceUserAccessBodySchema,
  type UpdateUserAccessBodySchema,
  GLOBAL_ERRORS,
  type SignatureRef,
  USER_ACCESS_MESSAGES,
  type UserAccess,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { z } from 'zod';
import type { AuthContext } from '../../auth/guard';
import { notFound, unprocessable } from '../../http/errors';
import { saveUserAccess } from '../../shared/access-records';
import { userAccessViews } from '../../shared/views';

const RECORD = 'record';

/** GET /rest/secure/user_access: every record, active and superseded, by id. */
export async function listAllAccess(prisma: PrismaClient): Promise<UserAccess[]> {
  const rows = await prisma.userAccess.findMany({ orderBy: { id: 'asc' } });
  return userAccessViews(prisma, rows);
}

/** GET /rest/secure/user_access/{id}. @throws 404 'Problem loading user access records.' */
export async function getAccess(prisma: PrismaClient, id: number): Promise<UserAccess> {
  const row = await prisma.userAccess.findUnique({ where: { id } });
  if (!row) throw notFound(USER_ACCESS_MESSAGES.loadRecordsFailed);
  return (await userAccessViews(prisma, [row]))[0]!;
}

/**
 * GET /rest/secure/user_access/{id}/{revisionNo}: the version `revisionNo` of the chain record `id` belongs to
 * (the chain is named by its first record: `originalRevisionNumber`, or the id of a first version).
 */
export async function getAccessRevision(prisma: PrismaClient, id: number, revisionNo: number): Promise<UserAccess> {
  const row = await prisma.userAccess.findUnique({ where: { id } });
  if (!row) throw notFound(USER_ACCESS_MESSAGES.loadRecordsFailed);
  const root = row.originalRevisionNumber ?? row.id;
  const revision = await prisma.userAccess.findFirst({
    where: {
      portalUserId: row.portalUserId,
      versionno: revisionNo,
      OR: [{ id: root }, { originalRevisionNumber: root }],
    },
  });
  if (!revision) throw notFound(USER_ACCESS_MESSAGES.loadRecordsFailed);
  return (await userAccessViews(prisma, [revision]))[0]!;
}

/** GET /rest/secure/user_access/user/{portalUserId}: the user's active records by study role. */
export async function userAccessOf(prisma: PrismaClient, portalUserId: number): Promise<UserAccess[]> {
  if (!(await prisma.portalUser.findUnique({ where: { id: portalUserId }, select: { id: true } }))) {
    throw notFound(USER_ACCESS_MESSAGES.loadUserAccessFailed);
  }
  const rows = await prisma.userAccess.findMany({
    where: { portalUserId, inactive: false },
    orderBy: { roleName: 'asc' },
  });
  return userAccessViews(prisma, rows);
}

/** POST /rest/secure/user_access: a new record for a study role the user does not hold ('unique' otherwise). */
export async function createAccess(
  prisma: PrismaClient,
  actor: AuthContext,
  body: z.output<typeof CreateUserAccessBodySchema>,
  signature?: SignatureRef,
): Promise<UserAccess> {
  // A role the user holds is 'unique' (checked under the user's lock by the writer).
  const { id: _id, versionno: _v, ...record } = body;
  const changes = await saveUserAccess(
    prisma,
    actor,
    body.portalUserId,
    { userAccesses: [record], only: new Set([body.roleName]), createOnly: true },
    {
      keyPrefix: RECORD,
      action: 'ACCESS_CREATED',
      notFoundText: USER_ACCESS_MESSAGES.loadUserAccessFailed,
      single: true,
      signature,
    },
  );
  return getAccess(prisma, changes[0]!.newId);
}

/**
 * PUT /rest/secure/user_access/{id}: a new version of the record at `versionno` (STALE_VERSION when it was
 * superseded or is at another version; its study role cannot change). `inactive: true` removes the access.
 */
export async function updateAccess(
  prisma: PrismaClient,
  actor: AuthContext,
  id: number,
  body: z.output<typeof UpdateUserAccessBodySchema>,
  signature?: SignatureRef,
): Promise<UserAccess> {
  const row = await prisma.userAccess.findUnique({ where: { id } });
  if (!row) throw notFound(USER_ACCESS_MESSAGES.loadRecordsFailed);
  if (body.roleName !== row.roleName) throw unprocessable({ roleName: ['invalid'] });
  if (row.inactive || body.versionno !== row.versionno) throw unprocessable({}, [GLOBAL_ERRORS.staleVersion]);
  const { inactive, ...record } = body;
  const changes = await saveUserAccess(
    prisma,
    actor,
    row.portalUserId,
    { userAccesses: inactive ? [] : [{ ...record, id }], only: new Set([row.roleName]) },
    {
      keyPrefix: RECORD,
      action: inactive ? 'ACCESS_REMOVED' : 'ACCESS_UPDATED',
      notFoundText: USER_ACCESS_MESSAGES.loadRecordsFailed,
      single: true,
      signature,
    },
  );
  return getAccess(prisma, changes[0]!.newId);
}

/**
 * PUT /rest/secure/user_access/user/{portalUserId}: the user's access becomes `userAccesses` (roles left out
 * are removed). @returns the user's active records afterwards.
 */
export async function replaceUserAccess(
  prisma: PrismaClient,
  actor: AuthContext,
  portalUserId: number,
  body: z.output<typeof ReplaceUserAccessBodySchema>,
  signature?: SignatureRef,
): Promise<UserAccess[]> {
  const strangers = body.userAccesses.flatMap((a, i) =>
    a.portalUserId !== undefined && a.portalUserId !== portalUserId ? [`userAccesses[${i}].portalUserId`] : [],
  );
  if (strangers.length) throw unprocessable(Object.fromEntries(strangers.map((k) => [k, ['invalid']])));
  await saveUserAccess(prisma, actor, portalUserId, body, {
    keyPrefix: 'userAccesses',
    action: 'ACCESS_REPLACED',
    notFoundText: USER_ACCESS_MESSAGES.loadUserAccessFailed,
    signature,
  });
  return userAccessOf(prisma, portalUserId);
}
