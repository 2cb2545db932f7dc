/**
 * The audit trail's seals and their verification (docs/decisions.md "A tamper-evident audit trail"), on a copy
 * of the seeded test database per test: the triggers refuse UPDATE, DELETE and TRUNCATE; tampering behind
 * them, as a superuser can (session_replication_role), is named by the verifier with the row and the window:
 * a row changed, rows deleted, a row inserted with an old timestamp or a chosen id, a seal altered, the newest
 * seals and rows cut off. Rows of a transaction still open when a seal is written are sealed by the next one,
 * and two sealers running at once never seal a row twice.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuditFindingKind,
  newSealKeyPair,
  poolConfigFromUrl,
  sealNextRows,
  sealPublicKeys,
  sealSigningKey,
  verifyAuditTrail,
} from '@portal/db';
import { cloneDatabase } from '../hostile/walker-support';

const keys = newSealKeyPair();
const key = sealSigningKey(keys.privateKey);
const publicKeys = sealPublicKeys(keys.publicKey);
const LATE_AFTER_MS = 60_000;
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;

beforeEach(async () => {
  clone = await cloneDatabase();
  pool = new pg.Pool({ ...poolConfigFromUrl(clone.url), max: 4 });
  // Dropping the clone ends its idle connections: not an error of the test.
  pool.on('error', () => undefined);
});
afterEach(async () => {
  await pool?.end();
  await clone?.drop();
});

/** Runs `body` on a connection of the clone's pool. */
async function withClient<T>(body: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await body(client);
  } finally {
    client.release();
  }
}

/** Inserts `n` audit rows; @returns their ids. */
async function addRows(n: number, client?: pg.ClientBase, at = 'now()'): Promise<string[]> {
  const run = async (c: pg.ClientBase) =>
    (
      await c.query<{ id: string }>(
        `INSERT INTO "AuditEvent" ("at", "actorUsername", "entityType", "entityId", "action", "after")
         SELECT ${at}, 'seal-test', 'Test', g::text, 'TESTED', jsonb_build_object('n', g, 'text', 'a "quoted" é')
           FROM generate_series(1, $1::int) AS g RETURNING "id"::text AS id`,
        [n],
      )
    ).rows.map((r) => r.id);
  return client ? run(client) : withClient(run);
}

const seal = (maxRows = 50_000) => withClient((c) => sealNextRows(c, { key, maxRows, gapHorizonMs: LATE_AFTER_MS }));
/** Seals until nothing is left. */
async function sealAll() {
  for (let i = 0; i < 100; i++) if (!(await seal()).more) return;
  throw new Error('the sealer did not catch up in 100 steps');
}
const verify = (witness?: { id: string; hash: string }) =>
  withClient((c) => verifyAuditTrail(c, { publicKeys, lateAfterMs: LATE_AFTER_MS, witness }));
/** Runs `sql` with the triggers bypassed, as a superuser could. */
const behindTheTriggers = (sql: string, values: unknown[] = []) =>
  withClient(async (c) => {
    await c.query('SET session_replication_role = replica');
    try {
      await c.query(sql, values);
    } finally {
      await c.query('SET session_replication_role = DEFAULT');
    }
  });
const kinds = (v: Awaited<ReturnType<typeof verify>>): AuditFindingKind[] => v.findings.map((f) => f.kind);

describe('the audit trail', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of rows and seals', async () => {
    const [id] = await addRows(1);
    await sealAll();
    for (const sql of [
      `UPDATE "AuditEvent" SET "action" = 'X' WHERE "id" = ${id}`,
      `DELETE FROM "AuditEvent" WHERE "id" = ${id}`,
      'TRUNCATE "AuditEvent"',
      `UPDATE "AuditSeal" SET "signature" = 'x'`,
      'DELETE FROM "AuditSeal"',
      'TRUNCATE "AuditSeal"',
    ])
      await expect(
        withClient((c) => c.query(sql)),
        sql,
      ).rejects.toThrow(/append-only/);
  });

  it('verifies a sealed trail, and counts the rows written after the newest seal as awaiting it', async () => {
    await addRows(120);
    const first = await seal(50);
    expect(first.more).toBe(true);
    await sealAll();
    await addRows(3);
    const v = await verify();
    expect(v.findings).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.awaitingSeal).toBe(3);
    expect(v.seals).toBeGreaterThanOrEqual(2);
  });

  it('names a row changed behind the triggers, with its seal and window', async () => {
    const ids = await addRows(10);
    await sealAll();
    await behindTheTriggers(`UPDATE "AuditEvent" SET "after" = '{"n": 99}' WHERE "id" = $1`, [ids[4]]);
    const v = await verify();
    expect(v.ok).toBe(false);
    expect(v.findings).toHaveLength(1);
    expect(v.findings[0]).toMatchObject({ kind: 'ROW_CHANGED', rowId: ids[4] });
    expect(v.findings[0]!.from).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('names rows deleted behind the triggers as one range', async () => {
    const ids = await addRows(10);
    await sealAll();
    await behindTheTriggers(`DELETE FROM "AuditEvent" WHERE "id" BETWEEN $1 AND $2`, [ids[2], ids[5]]);
    const v = await verify();
    expect(kinds(v)).toEqual(['ROW_MISSING']);
    expect(v.findings[0]).toMatchObject({ rowId: ids[2], toRowId: ids[5] });
  });

  it('names a row inserted with an old timestamp as inserted late, and one with a chosen id as outside any seal', async () => {
    const ids = await addRows(5);
    await sealAll();
    const [late] = await addRows(1, undefined, `now() - interval '2 hours'`);
    await sealAll();
    const chosen = String(BigInt(ids[0]!) - 1n);
    await behindTheTriggers(
      `INSERT INTO "AuditEvent" ("id", "actorUsername", "entityType", "entityId", "action")
       VALUES ($1, 'intruder', 'Test', 'x', 'FORGED')`,
      [chosen],
    );
    const v = await verify();
    expect(kinds(v).sort()).toEqual(['ROW_INSERTED_LATE', 'ROW_OUTSIDE_SEALS']);
    expect(v.findings.find((f) => f.kind === 'ROW_INSERTED_LATE')!.rowId).toBe(late);
    expect(v.findings.find((f) => f.kind === 'ROW_OUTSIDE_SEALS')!.rowId).toBe(chosen);
  });

  it('names a seal altered: its signature, or digests changed with it', async () => {
    await addRows(10);
    await sealAll();
    const newest = await withClient(
      async (c) => (await c.query('SELECT max("id")::text AS id FROM "AuditSeal"')).rows[0].id,
    );
    await behindTheTriggers(`UPDATE "AuditSeal" SET "rowCount" = "rowCount" + 1 WHERE "id" = $1`, [newest]);
    await behindTheTriggers(`UPDATE "AuditSeal" SET "signature" = $2 WHERE "id" = $1`, [newest, 'A'.repeat(86)]);
    const v = await verify();
    expect(kinds(v)).toContain('SEAL_ALTERED');
    expect(v.findings.every((f) => f.sealId === newest)).toBe(true);
  });

  it('names the newest seals and rows cut off together, against the seal Temporal witnessed', async () => {
    await addRows(10);
    await sealAll();
    await addRows(10);
    const step = await seal();
    const witness = step.newest!;
    await behindTheTriggers(
      `DELETE FROM "AuditEvent" WHERE "id" > (SELECT "maxId" FROM "AuditSeal" WHERE "id" = $1::bigint - 1)`,
      [witness.id],
    );
    await behindTheTriggers(`DELETE FROM "AuditSeal" WHERE "id" = $1`, [witness.id]);
    expect((await verify()).ok, 'without the witness the cut is invisible').toBe(true);
    const v = await verify(witness);
    expect(kinds(v)).toEqual(['SEALS_CUT_OFF']);
    expect(v.findings[0]!.sealId).toBe(witness.id);
  });

  it('seals the row of a transaction still open at one seal with the next, without a late or missing finding', async () => {
    await addRows(2);
    await sealAll();
    const open = await pool.connect();
    try {
      await open.query('BEGIN');
      const [held] = await addRows(1, open);
      const after = await addRows(2);
      expect(BigInt(after[0]!)).toBeGreaterThan(BigInt(held!));
      await sealAll();
      const before = await verify();
      expect(before.ok).toBe(true);
      expect(before.awaitingSeal).toBe(0);
      await open.query('COMMIT');
      expect((await verify()).awaitingSeal, 'the held row waits in a pending gap').toBe(1);
      await sealAll();
      const v = await verify();
      expect(v.findings).toEqual([]);
      expect(v.awaitingSeal).toBe(0);
    } finally {
      open.release();
    }
  });

  it('never seals a row twice with two sealers at once', async () => {
    const writes = (async () => {
      for (let i = 0; i < 20; i++) await addRows(25);
    })();
    const sealer = async () => {
      for (let i = 0; i < 20; i++) await seal(40);
    };
    await Promise.all([writes, sealer(), sealer()]);
    await sealAll();
    const v = await verify();
    expect(v.findings).toEqual([]);
    expect(v.awaitingSeal).toBe(0);
  });
});
