/**
 * The (ACCESS_CHANGE, user) filing lock that a proxy batch's filing of a user takes first (worker/src/kinds/
 * proxy-batch/file-item.ts), held by a test so the batch waits at a known user: a kill or a deactivation
 * lands at that point, or a page reloads while the batch still runs. Shared by the integration and e2e tests.
 */
import { LOCK_NAMESPACES, type PrismaClient } from '@portal/db';

/**
 * Takes the filing locks of `portalUserIds` and holds them in an open transaction: the batch's filing of any
 * of those users waits inside its activity until the release.
 * @returns the release (idempotent), once the locks are held.
 */
export async function holdFilingLock(
  prisma: PrismaClient,
  portalUserIds: number | number[],
): Promise<() => Promise<void>> {
  const ids = [portalUserIds].flat();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const isHeld = new Promise<void>((r) => (held = r));
  const tx = prisma.$transaction(
    async (t) => {
      await t.$queryRaw`
        SELECT pg_advisory_xact_lock(${LOCK_NAMESPACES.ACCESS_CHANGE}::int4, id)::text FROM unnest(${ids}::int4[]) AS id`;
      held();
      await released;
    },
    { maxWait: 10_000, timeout: 300_000 },
  );
  await Promise.race([isHeld, tx]);
  return async () => {
    release();
    await tx;
  };
}

/** True when some session waits for the user's filing lock: a filing of them is under way. */
export async function filingWaits(prisma: PrismaClient, portalUserId: number): Promise<boolean> {
  const [row] = await prisma.$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND classid::bigint = ${LOCK_NAMESPACES.ACCESS_CHANGE}::bigint
       AND objid::bigint = ${portalUserId}::bigint AND objsubid = 2`;
  return row.n > 0;
}
