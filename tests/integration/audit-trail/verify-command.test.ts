/**
 * `npm run audit:verify` (scripts/src/audit-verify.ts) on a copy of the seeded database: it says 'intact' and
 * exits 0 on a sealed trail; after a row is changed behind the triggers it exits 1 and names the row; without
 * its settings it exits 2 and says what it needs. Each run is audited (AUDIT_VERIFIED).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSealKeyPair, poolConfigFromUrl, sealNextRows, sealSigningKey } from '@portal/db';
import { cloneDatabase } from '../hostile/walker-support';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');
const keys = newSealKeyPair();
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  clone = await cloneDatabase();
  pool = new pg.Pool({ ...poolConfigFromUrl(clone.url), max: 2 });
  pool.on('error', () => undefined);
});
afterAll(async () => {
  await pool?.end();
  await clone?.drop();
});

/** Runs the command with `env` (and no local stack's settings); @returns its exit code and output. */
function auditVerify(env: Record<string, string>) {
  const run = spawnSync(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      path.join(ROOT, 'scripts', 'src', 'audit-verify.ts'),
      '--data-dir',
      os.tmpdir(),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    },
  );
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('npm run audit:verify', () => {
  it('says intact, then names a changed row, and audits each run', async () => {
    const ids = (
      await pool.query<{ id: string }>(
        `INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", "action")
         SELECT 'verify-command', 'Test', g::text, 'TESTED' FROM generate_series(1, 20) AS g RETURNING "id"::text AS id`,
      )
    ).rows.map((r) => r.id);
    const client = await pool.connect();
    try {
      await sealNextRows(client, { key: sealSigningKey(keys.privateKey), maxRows: 1000, gapHorizonMs: 60_000 });
    } finally {
      client.release();
    }
    // No TEMPORAL_ADDRESS: the shared Temporal's schedules witness other databases' seals, not this copy's
    // (the witness is tested in seal-workflow.test.ts).
    const env = { DATABASE_URL: clone.url, AUDIT_SEAL_PUBLIC_KEYS: keys.publicKey };
    const intact = auditVerify(env);
    expect(intact.out).toContain('audit trail intact');
    expect(intact.code, intact.out).toBe(0);

    const tamper = await pool.connect();
    try {
      await tamper.query('SET session_replication_role = replica');
      await tamper.query(`UPDATE "AuditEvent" SET "actorUsername" = 'someone else' WHERE "id" = $1`, [ids[7]]);
    } finally {
      await tamper.query('SET session_replication_role = DEFAULT');
      tamper.release();
    }
    const changed = auditVerify(env);
    expect(changed.code, changed.out).toBe(1);
    expect(changed.out).toMatch(new RegExp(`ROW_CHANGED row ${ids[7]} seal \\d+`));

    const audited = await pool.query<{ ok: boolean }>(
      `SELECT ("after"->>'ok')::boolean AS ok FROM "AuditEvent" WHERE "action" = 'AUDIT_VERIFIED' ORDER BY "id"`,
    );
    expect(audited.rows.map((r) => r.ok)).toEqual([true, false]);
  });

  it('exits 2 and says what it needs without its settings', () => {
    const run = auditVerify({});
    expect(run.code, run.out).toBe(2);
    expect(run.out).toContain('needs DATABASE_URL and AUDIT_SEAL_PUBLIC_KEYS');
  });
});
