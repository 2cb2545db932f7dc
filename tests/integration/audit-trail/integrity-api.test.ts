/**
 * Audit Integrity's API (docs/decisions.md "A tamper-evident audit trail"): GET /rest/secure/audit_integrity
 * and POST .../verify, ADMIN only. On a copy of the seeded database (tampering is done there only, never on
 * the shared one) with an in-process worker: a verification started by an ADMIN runs as `audit-verify`, the
 * screen's read follows it until it is done and then shows it intact and by that ADMIN; after a row is changed
 * behind the triggers, the next verification names that row.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditIntegrity } from '@portal/contract';
import {
  type PrismaClient,
  createPrisma,
  newSealKeyPair,
  poolConfigFromUrl,
  sealNextRows,
  sealPublicKeys,
  sealSigningKey,
} from '@portal/db';
import { cloneDatabase } from '../hostile/walker-support';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { until } from '../lifecycle/support';

const URL = '/rest/secure/audit_integrity';
const taskQueue = `audit-integrity-${Date.now()}`;
const keys = newSealKeyPair();
const key = sealSigningKey(keys.privateKey);
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let prisma: PrismaClient;
let pool: pg.Pool;
let api: TestApi;
let stopWorker: () => Promise<void>;
let call: ReturnType<typeof caller>;
let admin: Session;

beforeAll(async () => {
  clone = await cloneDatabase();
  prisma = createPrisma(clone.url);
  pool = new pg.Pool({ ...poolConfigFromUrl(clone.url), max: 2 });
  // Dropping the clone ends its idle connections: not an error of the test.
  pool.on('error', () => undefined);
  api = await startApi({ DATABASE_URL: clone.url, TEMPORAL_TASK_QUEUE: taskQueue }, () => prisma);
  stopWorker = await startWorker(api, taskQueue, {
    prisma,
    auditSeal: { databaseUrl: clone.url, key, gapHorizonMs: 60_000 },
    auditVerify: { databaseUrl: clone.url, publicKeys: sealPublicKeys(keys.publicKey), lateAfterMs: 60_000 },
  });
  // The seeded copy may hold no audit rows yet: a few, so there is something to seal and to change.
  await pool.query(
    `INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", "action", "after")
     SELECT 'integrity-test', 'Test', g::text, 'TESTED', jsonb_build_object('n', g) FROM generate_series(1, 20) AS g`,
  );
  call = caller(api.app);
  admin = await signIn(api.app, 'admin');
});
afterAll(async () => {
  await stopWorker?.();
  await api?.close();
  await prisma?.$disconnect();
  await pool?.end();
  await clone?.drop();
});

/** Seals every row of the clone, as the schedule would. */
async function sealAll(): Promise<void> {
  const client = await pool.connect();
  try {
    for (let i = 0; i < 100; i++)
      if (!(await sealNextRows(client, { key, maxRows: 50_000, gapHorizonMs: 60_000 })).more) return;
    throw new Error('the sealer did not catch up in 100 steps');
  } finally {
    client.release();
  }
}

const read = async (): Promise<AuditIntegrity> => {
  const res = await call(admin, 'GET', URL);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Presses 'Verify now' and follows the read until the run is done. @returns the read after it. */
async function verifyNow(): Promise<AuditIntegrity> {
  const before = (await read()).lastVerification?.at ?? null;
  const res = await call(admin, 'POST', `${URL}/verify`, {});
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toEqual({ running: true });
  let last: AuditIntegrity | undefined;
  await until(
    async () => {
      last = await read();
      return !last.running && !!last.lastVerification && last.lastVerification.at !== before;
    },
    'the verification to finish',
    60_000,
  );
  return last!;
}

describe('Audit Integrity API', () => {
  it('answers 401 without a session and 403 to anyone but an ADMIN, on both calls', async () => {
    expect((await call(null, 'GET', URL)).statusCode).toBe(401);
    expect((await call(null, 'POST', `${URL}/verify`, {})).statusCode).toBe(401);
    for (const name of ['reviewer', 'readonly']) {
      const s = await signIn(api.app, name);
      expect((await call(s, 'GET', URL)).statusCode, name).toBe(403);
      expect((await call(s, 'POST', `${URL}/verify`, {})).statusCode, name).toBe(403);
    }
  });

  it('refuses a body that is not an object with 422', async () => {
    expect((await call(admin, 'POST', `${URL}/verify`, [1])).statusCode).toBe(422);
  });

  it('shows the newest seal and the rows awaiting it', async () => {
    await sealAll();
    const state = await read();
    expect(state.newestSeal).not.toBeNull();
    expect(state.sealing).toBe(true);
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "AuditEvent" WHERE "id" > (SELECT max("maxId") FROM "AuditSeal")`,
    );
    expect(state.awaitingSeal).toBe(rows[0]!.n);
  });

  it('runs a verification an ADMIN starts, and shows it intact and by that ADMIN', async () => {
    await sealAll();
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "AuditEvent"`);
    const state = await verifyNow();
    const v = state.lastVerification!;
    expect(v.ok, JSON.stringify(v.findings)).toBe(true);
    expect(v.by).toBe('admin');
    expect(v.findings).toEqual([]);
    expect(v.seals).toBeGreaterThanOrEqual(1);
    expect(v.rows).toBeGreaterThanOrEqual(rows[0]!.n);
    expect(state.lastRunFailed).toBe(false);
    const row = await prisma.auditEvent.findFirstOrThrow({
      where: { action: 'AUDIT_VERIFIED' },
      orderBy: { id: 'desc' },
    });
    expect(row.actorUsername).toBe('admin');
    const person = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'admin' } });
    expect(row.actorUserId).toBe(person.id);
  });

  it('is not held up by a verification started on a task queue no worker polls (the id is per task queue)', async () => {
    const lonely = await startApi(
      { DATABASE_URL: clone.url, TEMPORAL_TASK_QUEUE: `${taskQueue}-nobody` },
      () => prisma,
    );
    try {
      const res = await caller(lonely.app)(await signIn(lonely.app, 'admin'), 'POST', `${URL}/verify`, {});
      expect(res.statusCode).toBe(202);
      expect((await caller(lonely.app)(await signIn(lonely.app, 'admin'), 'GET', URL)).json().running).toBe(true);
      // This deployment's worker still runs its own verification to the end.
      expect((await verifyNow()).lastVerification!.ok).toBe(true);
    } finally {
      await lonely.close();
    }
  });

  it('names the row changed behind the triggers in the next verification', async () => {
    await sealAll();
    const target = await prisma.auditEvent.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const client = await pool.connect();
    try {
      // Only on this copy: what a superuser could do, bypassing the append-only triggers.
      await client.query('SET session_replication_role = replica');
      await client.query(`UPDATE "AuditEvent" SET "action" = 'TAMPERED' WHERE "id" = $1`, [target.id]);
      await client.query('SET session_replication_role = DEFAULT');
    } finally {
      client.release();
    }
    const v = (await verifyNow()).lastVerification!;
    expect(v.ok).toBe(false);
    expect(v.by).toBe('admin');
    expect(v.findingsTotal).toBeGreaterThanOrEqual(1);
    expect(v.findings).toContainEqual(expect.objectContaining({ kind: 'ROW_CHANGED', rowId: String(target.id) }));
  });

  it('answers 503 to Verify now when Temporal does not answer, and still reads what PostgreSQL holds', async () => {
    const away = await startApi({ DATABASE_URL: clone.url, TEMPORAL_ADDRESS: '127.0.0.1:1' }, () => prisma);
    try {
      const s = await signIn(away.app, 'admin');
      const res = await caller(away.app)(s, 'POST', `${URL}/verify`, {});
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().message).toMatch(/workflow service is not answering/);
      const state = await caller(away.app)(s, 'GET', URL);
      expect(state.statusCode, state.body).toBe(200);
      expect(state.json()).toMatchObject({ running: false, lastRunFailed: false });
      expect(state.json().lastVerification).not.toBeNull();
    } finally {
      await away.close();
    }
  });
});
