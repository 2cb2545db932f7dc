/** The transactions of the resources' changes: their client type and options (a lock wait, never unbounded). */
import type { Prisma } from '@portal/db';

export type Tx = Prisma.TransactionClient;

/** Long enough to store a large package's files in the item's transaction (issue 23 Speed: 50 MB in < 10 s). */
export const TX_OPTIONS = { timeout: 120_000, maxWait: 10_000 } as const;
