/**
 * Helpers the configuration services share (001 §4 Portal roles, study roles and systems): serialising
 * changes of one kind, telling a unique-key race from other failures, and comparing snapshots for 304.
 */
import type { Prisma } from '@portal/db';

export type Tx = Prisma.TransactionClient;

/** Advisory-lock keys (class 4 = configuration; the two-int key space does not overlap the one-bigint one). */
const LOCKS = { portalRoles: 1, studyRoles: 2, systems: 3, ssoClients: 4 } as const;

/** Serialises changes of one configuration kind until the transaction ends (uniqueness, last-admin rules). */
export async function lockConfig(tx: Tx, kind: keyof typeof LOCKS): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(4, ${LOCKS[kind]}::int)`;
}

/** True for a unique-constraint violation (Prisma P2002), e.g. two creates of one name racing. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}

/** Deep equality of two JSON-shaped snapshots (key order ignored). */
export function sameSnapshot(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Options of every configuration transaction: long enough for a lock wait, never unbounded. */
export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;
