/**
 * The portal's file store (issue 23 "Storage shared by every API process"): files live in PostgreSQL,
 * content-addressed by the SHA-256 of their bytes (`StoredFile`, so the same bytes are stored once however many
 * items use them), as 1 MiB `bytea` chunks (`StoredFileChunk`). Prisma reads a `bytea` value whole, so bytes go
 * in and out one chunk per statement: memory stays bounded by a chunk (or a batch of small files), whatever the
 * file's size.
 *
 * Writing happens inside the caller's transaction (the item's), so a file commits or rolls back with the item
 * that uses it. Locking against the collector (`collectUnusedFiles`): a writer upserts the `StoredFile` row, which
 * locks it until the writer's transaction ends; the collector skips locked rows, so a file a writer is about to
 * reference is never removed under it, and a writer waiting on a row the collector removes stores it anew.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import type { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, type PrismaClient } from '../generated/client/client';

/** The size of one chunk: 1 MiB. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/** At most this many bytes of small files go to PostgreSQL in one statement. */
const BATCH_BYTES = 4 * FILE_CHUNK_BYTES;
const BATCH_ROWS = 500;

type Tx = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/** The pg connection of a Prisma transaction (pg's PoolClient): statements with binary parameters. */
interface PgClient {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * Prisma serialises a `bytea` parameter through its query interpreter, which costs three times what pg takes
 * to send the same megabyte. A file transaction (`fileTransaction`) therefore sends its chunks on the
 * transaction's own pg connection, which the adapter (wrapped by `withTransactionClients`) records in this
 * slot when Prisma starts the transaction: same connection, same transaction, so the chunks still commit or
 * roll back with the item.
 */
const transactionSlot = new AsyncLocalStorage<{ client?: PgClient }>();

/** Wraps the adapter `factory` so a transaction started inside `fileTransaction` hands over its connection. */
export function withTransactionClients(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = await start(isolationLevel);
      const slot = transactionSlot.getStore();
      const client = (tx as { client?: PgClient }).client;
      if (slot && !slot.client && client) slot.client = client;
      return tx;
    };
    return adapter;
  };
  return factory;
}

/** What a file transaction's callback gets: the Prisma transaction and `storeFiles` bound to it. */
export interface FileTransaction {
  tx: Prisma.TransactionClient;
  storeFiles(files: readonly PendingFile[]): Promise<void>;
}

/**
 * Runs `fn` in one Prisma transaction whose file writes go over the transaction's own connection (falling back
 * to Prisma's raw queries when the adapter did not hand it over).
 */
export function fileTransaction<T>(
  prisma: PrismaClient,
  fn: (t: FileTransaction) => Promise<T>,
  options: { timeout: number; maxWait: number },
): Promise<T> {
  const slot: { client?: PgClient } = {};
  return transactionSlot.run(slot, () =>
    prisma.$transaction((tx) => fn({ tx, storeFiles: (files) => storeFiles(tx, files, slot.client) }), options),
  );
}

/**
 * A file waiting to be stored: its SHA-256 (hex), its size in bytes, and its bytes on local disk (a temporary
 * place, `path`) or, for a small one, in memory (`data`).
 */
export type PendingFile = { sha256: string; size: number } & ({ path: string } | { data: Buffer });

/**
 * Claims `files` in the store inside `tx`: an existing file is locked for the transaction (so the collector
 * leaves it), a new one is inserted. @returns the SHA-256s this transaction must write the bytes of.
 */
async function claim(tx: Tx, files: readonly PendingFile[]): Promise<Set<string>> {
  const fresh = new Set<string>();
  const unique = [...new Map(files.map((f) => [f.sha256, f])).values()].sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  for (let i = 0; i < unique.length; i += BATCH_ROWS) {
    const batch = unique.slice(i, i + BATCH_ROWS);
    // Sorted, so two writers claiming overlapping sets lock in one order. xmax = 0 marks a row this statement
    // inserted; an updated (existing) row is only locked.
    const rows = await tx.$queryRaw<{ sha256: string; inserted: boolean }[]>`
      INSERT INTO "StoredFile" ("sha256", "size")
      SELECT * FROM unnest(${batch.map((f) => f.sha256)}::text[], ${batch.map((f) => f.size)}::bigint[])
      ON CONFLICT ("sha256") DO UPDATE SET "sha256" = EXCLUDED."sha256"
      RETURNING "sha256", (xmax = 0) AS inserted`;
    for (const row of rows) if (row.inserted) fresh.add(row.sha256);
  }
  return fresh;
}

/** Reads `file` from memory or disk in chunks of FILE_CHUNK_BYTES, in order. */
async function* chunksOf(file: PendingFile): AsyncGenerator<Buffer> {
  if ('data' in file) {
    for (let offset = 0; offset < file.data.length || offset === 0; offset += FILE_CHUNK_BYTES) {
      yield file.data.subarray(offset, offset + FILE_CHUNK_BYTES);
      if (file.data.length === 0) return;
    }
    return;
  }
  const handle = await fs.promises.open(file.path, 'r');
  try {
    for (let offset = 0; offset < file.size || (offset === 0 && file.size === 0); offset += FILE_CHUNK_BYTES) {
      const length = Math.min(FILE_CHUNK_BYTES, file.size - offset);
      const buffer = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buffer, read, length - read, offset + read);
        if (bytesRead === 0) throw new Error(`${file.path} is shorter than ${file.size} bytes`);
        read += bytesRead;
      }
      yield buffer;
      if (file.size === 0) return;
    }
  } finally {
    await handle.close();
  }
}

async function insertChunks(
  tx: Tx,
  rows: { sha256: string; seq: number; data: Buffer }[],
  client?: PgClient,
): Promise<void> {
  if (!rows.length) return;
  if (client) {
    const values = rows.flatMap((r) => [r.sha256, r.seq, r.data]);
    const tuples = rows.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}::int, $${3 * i + 3}::bytea)`).join(', ');
    await client.query(`INSERT INTO "StoredFileChunk" ("sha256", "seq", "data") VALUES ${tuples}`, values);
    return;
  }
  await tx.$executeRaw`
    INSERT INTO "StoredFileChunk" ("sha256", "seq", "data")
    VALUES ${Prisma.join(rows.map((r) => Prisma.sql`(${r.sha256}, ${r.seq}, ${r.data})`))}`;
}

/**
 * Stores `files` (read from disk) in the store inside `tx`: files already stored are only referenced, new ones
 * are written chunk by chunk; small files are batched (at most 4 MiB per statement), so memory stays bounded.
 * The caller computed each SHA-256 while writing the file to disk. `client`: the transaction's own pg
 * connection (fileTransaction), for the chunks.
 */
export async function storeFiles(tx: Tx, files: readonly PendingFile[], client?: PgClient): Promise<void> {
  const fresh = await claim(tx, files);
  let batch: { sha256: string; seq: number; data: Buffer }[] = [];
  let batchBytes = 0;
  const written = new Set<string>();
  for (const file of files) {
    if (!fresh.has(file.sha256) || written.has(file.sha256)) continue;
    written.add(file.sha256);
    let seq = 0;
    for await (const data of chunksOf(file)) {
      if (batchBytes + data.length > BATCH_BYTES || batch.length >= BATCH_ROWS) {
        await insertChunks(tx, batch, client);
        batch = [];
        batchBytes = 0;
      }
      batch.push({ sha256: file.sha256, seq, data });
      batchBytes += data.length;
      seq += 1;
    }
  }
  await insertChunks(tx, batch, client);
}

/**
 * Reads a stored file's chunks in order, one statement per chunk, through `query` (a pg pool's or Prisma's
 * raw query). @returns the bytes, chunk by chunk; nothing when the file is not stored.
 */
export async function* readStoredFile(
  query: (sql: Prisma.Sql) => Promise<unknown[]>,
  sha256: string,
  fromSeq = 0,
): AsyncGenerator<Buffer> {
  for (let seq = fromSeq; ; seq += 1) {
    const rows = (await query(
      Prisma.sql`SELECT "data" FROM "StoredFileChunk" WHERE "sha256" = ${sha256} AND "seq" = ${seq}`,
    )) as { data: Uint8Array }[];
    const data = rows[0]?.data;
    if (!data) return;
    yield Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
}

/**
 * Removes the files of `candidates` that no item uses any more (issue 23 "Deleting an item removes files no
 * other item uses"), in a transaction of its own after the change that released them has committed. A file a
 * writer holds locked (about to use it) is skipped. @returns the SHA-256s removed.
 */
export async function collectUnusedFiles(
  prisma: { $transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> },
  candidates: readonly (string | null | undefined)[],
): Promise<string[]> {
  const shas = [...new Set(candidates.filter((s): s is string => !!s))].sort();
  if (!shas.length) return [];
  return prisma.$transaction(async (tx) => {
    const unused = await tx.$queryRaw<{ sha256: string }[]>`
      SELECT f."sha256" FROM "StoredFile" f
      WHERE f."sha256" = ANY(${shas}::text[])
        AND NOT EXISTS (SELECT 1 FROM "DashboardItem" i WHERE i."fileSha256" = f."sha256")
        AND NOT EXISTS (SELECT 1 FROM "DashboardItem" i WHERE i."imageSha256" = f."sha256")
        AND NOT EXISTS (SELECT 1 FROM "ElearningFile" e WHERE e."sha256" = f."sha256")
      ORDER BY f."sha256"
      FOR UPDATE SKIP LOCKED`;
    const gone = unused.map((r) => r.sha256);
    if (gone.length) await tx.$executeRaw`DELETE FROM "StoredFile" WHERE "sha256" = ANY(${gone}::text[])`;
    return gone;
  });
}
