/**
 * The one rule for a kind's directory writes of an address (docs/decisions.md "One address, one approval at a
 * time" and "Late effects of frozen dependencies"): the approval's write and the undo of it run under the
 * same transaction-scoped lock of the address, so an undo never runs while an approval's write to that address
 * is still on its way to the directory (a frozen slapd answering it after the save failed).
 */
import { type PrismaClient, lockEmail } from '@portal/db';
import type { Tx } from './types';

/**
 * Runs `fn` inside a transaction that holds the directory lock of `email` (compared lower-cased) until `fn`'s
 * directory writes ended. Its database writes go through the `tx` given to `fn`.
 */
export function underAddressLock<T>(prisma: PrismaClient, email: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      await lockEmail(tx, email);
      return fn(tx);
    },
    // Over every LDAP call of the write (each bounded by the directory client's own timeout).
    { timeout: 60_000 },
  );
}
