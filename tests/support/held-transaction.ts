/**
 * A transaction a test keeps open, so the product's statement that conflicts with it waits at a known point
 * (a row lock, an advisory lock, an uncommitted row under a unique key) until the test lets go.
 */
import type { PrismaClient } from '@portal/db';

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * Runs `take` in a transaction and keeps it open until the release, which rolls it back (nothing it wrote
 * stays). The deadlines are a guard against a hang, not a speed check: a connection may take long to come on a
 * busy machine.
 * @returns the release (idempotent), once `take` has run. @throws when the transaction ended before that
 * (a test waiting on the hold would otherwise wait out its own deadline).
 */
export async function holdTransaction(
  prisma: PrismaClient,
  take: (tx: Tx) => Promise<unknown>,
): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  let failure: unknown;
  const tx = prisma
    .$transaction(
      async (t) => {
        await take(t);
        held();
        await released;
        throw new Error('rolled back by the test');
      },
      { maxWait: 60_000, timeout: 300_000 },
    )
    .catch((err: unknown) => {
      failure = err;
    });
  let isHeldNow = false;
  await Promise.race([isHeld.then(() => (isHeldNow = true)), tx]);
  if (!isHeldNow) throw new Error(`the transaction could not be held: ${String(failure)}`);
  return async () => {
    release();
    await tx;
  };
}
