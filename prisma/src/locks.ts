/**
 * Transaction-scoped advisory locks (REQUEST-LIFECYCLE rule 7), in PostgreSQL's two-key form
 * `pg_advisory_xact_lock(namespace, id)` so request kinds and record families never share a key space:
 * - filing takes `(kind, subject)`: one filing per kind and subject at a time;
 * - every writer of a user's access records or portal roles takes `(USER_ACCESS, userId)`, whatever the
 *   request kind (review commits, the admin's access tab, registration approval, profile changes);
 * - an approval that writes an address to the directory takes `(EMAIL, hash of the lower-cased address)`
 *   (issue 21 case 4): registrations and profile changes alike, so only one reaches the directory.
 * Released at commit or rollback.
 */
import type { Prisma } from '../generated/client/client';

/** The first key of each lock family. Numbers are part of the contract between processes: never reuse one. */
export const LOCK_NAMESPACES = {
  ACCESS_CHANGE: 1001,
  REGISTRATION: 1002,
  PROFILE_CHANGE: 1003,
  PROXY_BATCH: 1004,
  /** Issue 25: an ADMIN's filing of a one-off access review campaign (subject: the ADMIN). */
  ACCESS_REVIEW: 1005,
  USER_ACCESS: 2001,
  EMAIL: 2002,
  /** The audit trail's sealer (audit-trail/seal.ts, subject 0): one seal is written at a time. */
  AUDIT_SEAL: 3001,
} as const;
export type FilingLockKind = 'ACCESS_CHANGE' | 'REGISTRATION' | 'PROFILE_CHANGE' | 'PROXY_BATCH' | 'ACCESS_REVIEW';

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$executeRawUnsafe'>;

/**
 * Serialises filings of one kind for one subject (user id, or a registration's email hash).
 * @throws RangeError when `subjectId` is not a 32-bit integer.
 */
export async function lockFiling(tx: Tx, kind: FilingLockKind, subjectId: number): Promise<void> {
  await tx.$executeRawUnsafe(filingLockStatement(kind, subjectId));
}

/**
 * The filing lock as plain SQL text: `lockFiling` runs it, and the API's hot filing path sends it with its
 * BEGIN in one round trip. Its only values are integers, written as literals.
 * @throws RangeError when `subjectId` is not a 32-bit integer.
 */
export function filingLockStatement(kind: FilingLockKind, subjectId: number): string {
  if (!Number.isInteger(subjectId) || subjectId < -(2 ** 31) || subjectId >= 2 ** 31) {
    throw new RangeError(`filing lock: ${subjectId} is not a 32-bit integer`);
  }
  return `SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES[kind]}, ${subjectId})`;
}

/** Serialises every write of one user's access records and portal roles. */
export async function lockUserAccess(tx: Tx, portalUserId: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES.USER_ACCESS}::int4, ${portalUserId}::int4)`;
}

/** Serialises the directory writes of one address, compared lower-cased (issue 21 case 4). */
export async function lockEmail(tx: Tx, email: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES.EMAIL}::int4, hashtext(lower(${email})))`;
}
