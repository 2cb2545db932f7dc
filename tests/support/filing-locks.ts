/**
 * Advisory locks of the product held by a test, so a workflow's activity waits at a known person: a kill or a
 * deactivation lands at that point, or a page reloads while the work still runs. Shared by the integration and
 * e2e tests:
 * - the (ACCESS_CHANGE, user) filing lock that a proxy batch's filing of a user takes first (worker/src/kinds/
 *   proxy-batch/file-item.ts): `holdFilingLock`, `filingWaits`;
 * - the (USER_ACCESS, user) lock of the one access-records writer, which an access review campaign's removal
 *   of that person takes (prisma/src/access-review-removal.ts): `holdUserLock`, `userLockWaits`.
 */
import { LOCK_NAMESPACES, type PrismaClient } from '@portal/db';
import { holdTransaction } from './held-transaction';

type Namespace = keyof typeof LOCK_NAMESPACES;

/**
 * Takes the `namespace` locks of `portalUserIds` and holds them in an open transaction until the release.
 * @returns the release (idempotent), once the locks are held.
 */
async function holdLocks(
  prisma: PrismaClient,
  namespace: Namespace,
  portalUserIds: number | number[],
): Promise<() => Promise<void>> {
  const ids = [portalUserIds].flat();
  return holdTransaction(
    prisma,
    (t) => t.$queryRaw`
      SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES[namespace]}::int4, id)::text FROM unnest(${ids}::int4[]) AS id`,
  );
}

/** True when some session waits for `portalUserId`'s `namespace` lock. */
async function lockWaits(prisma: PrismaClient, namespace: Namespace, portalUserId: number): Promise<boolean> {
  const [row] = await prisma.$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND classid::bigint = ${LOCK_NAMESPACES[namespace]}::bigint
       AND objid::bigint = ${portalUserId}::bigint AND objsubid = 2`;
  return row.n > 0;
}

/** Holds the filing locks of `portalUserIds`: the batch's filing of any of them waits until the release. */
export const holdFilingLock = (prisma: PrismaClient, portalUserIds: number | number[]) =>
  holdLocks(prisma, 'ACCESS_CHANGE', portalUserIds);

/** True when some session waits for the user's filing lock: a filing of them is under way. */
export const filingWaits = (prisma: PrismaClient, portalUserId: number) =>
  lockWaits(prisma, 'ACCESS_CHANGE', portalUserId);

/** Holds `portalUserId`'s access lock: a campaign's removal of that person waits until the release. */
export const holdUserLock = (prisma: PrismaClient, portalUserId: number) =>
  holdLocks(prisma, 'USER_ACCESS', portalUserId);

/** True when some session waits for `portalUserId`'s access lock. */
export const userLockWaits = (prisma: PrismaClient, portalUserId: number) =>
  lockWaits(prisma, 'USER_ACCESS', portalUserId);
