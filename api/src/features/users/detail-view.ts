/**
 * Reading one user for the detail screen (000 §3 User, §7 GET user_management/user/{id}): the portal row,
 * its portal roles, its active access records with the sites they name, and the directory entry's uidNumber;
 * and the fields update_user may change as the row holds them (the User shows them, the update compares them).
 */
import { USER_DETAIL_MESSAGES, type UserDetail, type UserUpdateBodySchema } from '@portal/contract';
import type { z } from 'zod';
import type { Prisma, PrismaClient } from '@portal/db';
import { type DirectoryConfig, findPersonByUuid } from '@portal/directory';
import { notFound } from '../../http/errors';
import { loadLaoSiteCodes, siteListOf, userAccessView } from '../../shared/views';

type Db = PrismaClient | Prisma.TransactionClient;

const INCLUDE = {
  portalRoles: true,
  userAccesses: { where: { inactive: false }, orderBy: { roleName: 'asc' } },
} as const satisfies Prisma.PortalUserInclude;
export type UserRow = Prisma.PortalUserGetPayload<{ include: typeof INCLUDE }>;

/** The user row with its roles and active access records. @throws HttpError 404 'Problem loading user.' */
export async function loadUserRow(db: Db, id: number): Promise<UserRow> {
  const row = await db.portalUser.findUnique({ where: { id }, include: INCLUDE });
  if (!row) throw notFound(USER_DETAIL_MESSAGES.loadUserFailed);
  return row;
}

/** The fields update_user may change (000 §7 PUT update_user), without the id. */
export type Editable = Omit<z.output<typeof UserUpdateBodySchema>, 'id'>;

/** The editable fields as the row holds them (the 304 comparison and the audit row's before/after). */
export function editableOf(row: UserRow): Editable {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    username: row.username,
    gecos: row.gecos,
    organizationName: row.organizationName,
    jobTitle: row.jobTitle,
    phoneNumber: row.phoneNumber,
    phoneExtension: row.phoneExtension,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    country: row.country,
    state: row.state,
    postalCode: row.postalCode,
    portalRoleIds: row.portalRoles.map((r) => r.portalRoleId).sort((a, b) => a - b),
  };
}

const distinct = (values: string[]) => [...new Set(values)].sort();

/** The User of 000 §3 from its row; `uidNumber` comes from the directory (null when unknown). */
export async function userDetailView(db: Db, row: UserRow, uidNumber: number | null): Promise<UserDetail> {
  const siteCodes = distinct(row.userAccesses.flatMap((a) => a.siteCodes));
  const laoIds = distinct(row.userAccesses.flatMap((a) => a.laoIds));
  const laoSiteCodes = await loadLaoSiteCodes(db, laoIds);
  return {
    id: row.id,
    uuid: row.uuid,
    ...editableOf(row),
    accountType: row.accountType,
    uidNumber,
    inactive: row.inactive,
    siteCodes,
    laoIds,
    sites: siteListOf(siteCodes, laoIds, laoSiteCodes),
    userAccesses: row.userAccesses.map((a) => userAccessView(a, laoSiteCodes)),
  };
}

/**
 * The entry's uidNumber; null when the user has no entry or the directory cannot be reached (the number is
 * shown read-only, so the screen still loads without it).
 */
export async function uidNumberOf(directory: DirectoryConfig, uuid: string | null): Promise<number | null> {
  if (!uuid) return null;
  try {
    return (await findPersonByUuid(directory, uuid))?.uidNumber ?? null;
  } catch {
    return null;
  }
}

/** GET user/{id}. @throws 404. */
export async function getUserDetail(prisma: PrismaClient, directory: DirectoryConfig, id: number): Promise<UserDetail> {
  const row = await loadUserRow(prisma, id);
  return userDetailView(prisma, row, await uidNumberOf(directory, row.uuid));
}
