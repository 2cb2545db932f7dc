/**
 * What the provisioning calls share (issue 41): the audit entity, deadlines, the per-system serialisation of
 * connection changes, and the lookups of a system and its connection with the refusals every call gives
 * (404 unknown system, 422 the fixed system, 404 no connection).
 */
import type { FastifyBaseLogger } from 'fastify';
import { CONFIG_MESSAGES, PROVISIONING_MESSAGES } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { notFound, unprocessable } from '../../http/errors';
import type { ConnectionRow } from './views';

export type Tx = Prisma.TransactionClient;
/** Where the calls log what they survive (the request's logger). */
export type Log = Pick<FastifyBaseLogger, 'error' | 'warn'>;

/** The audit entity of a connection, keyed by the system's id (contract/src/audit.ts). */
export const ENTITY = 'ProvisioningConnection';

/** How long (ms) a call waits for Temporal (a schedule's change, a workflow's start). */
export const TEMPORAL_DEADLINE_MS = 10_000;

/** Options of a provisioning transaction: long enough for a lock wait, never unbounded. */
export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

/** An error's message, for a log line or a stored error (never a stack). */
export const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Holds system `id`'s row until the transaction ends (FOR NO KEY UPDATE: other tables' foreign keys to it are
 * not blocked), so changes of one system's connection, and their schedule's convergence, run one at a time.
 * @throws 404 'Problem loading system.' when there is no such system, 422 for the fixed system.
 */
export async function lockSystem(tx: Tx, id: number): Promise<void> {
  const rows = await tx.$queryRaw<Array<{ fixed: boolean }>>`
    SELECT "fixed" FROM "SystemAccess" WHERE "id" = ${id}::int4 FOR NO KEY UPDATE`;
  if (!rows[0]) throw notFound(CONFIG_MESSAGES.systems.load);
  if (rows[0].fixed) throw unprocessable({}, [PROVISIONING_MESSAGES.fixedSystem]);
}

/** System `id`'s connection. @throws 404 (unknown system; 'Provisioning is not set up ...'), 422 fixed system. */
export async function existingConnection(db: PrismaClient | Tx, id: number): Promise<ConnectionRow> {
  const system = await db.systemAccess.findUnique({ where: { id }, include: { provisioning: true } });
  if (!system) throw notFound(CONFIG_MESSAGES.systems.load);
  if (system.fixed) throw unprocessable({}, [PROVISIONING_MESSAGES.fixedSystem]);
  if (!system.provisioning) throw notFound(PROVISIONING_MESSAGES.notSetUp);
  return system.provisioning;
}

/** System `id`'s connection, refused when it is off. @throws as existingConnection, 422 'Provisioning is off ...'. */
export async function enabledConnection(db: PrismaClient | Tx, id: number): Promise<ConnectionRow> {
  const c = await existingConnection(db, id);
  if (!c.enabled) throw unprocessable({}, [PROVISIONING_MESSAGES.notEnabled]);
  return c;
}
