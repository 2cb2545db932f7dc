/**
 * The audit seal workflow and its schedule on a real Temporal with the worker in-process, on a copy of the
 * seeded database whose connection for the sealer goes through a fault proxy: a run seals everything and its
 * result witnesses the newest seal; with PostgreSQL frozen past each step's timeout the run keeps retrying,
 * and once PostgreSQL answers again it catches up on every row committed meanwhile, without gaps; the
 * schedule seals on its own, and its last completed run is the witness the verifier reads.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSealKeyPair, poolConfigFromUrl, sealPublicKeys, sealSigningKey, verifyAuditTrail } from '@portal/db';
import { ensureAuditSealSchedule } from '@portal/worker';
import {
  AUDIT_SEAL_WORKFLOW_TYPE,
  type AuditSealInput,
  type AuditSealResult,
  newestWitnessedSeal,
} from '@portal/workflows';
import { type FaultProxy, proxyFor } from '../../support/fault-proxy';
import { cloneDatabase } from '../hostile/walker-support';
import { type TestApi, startApi, startWorker } from '../harness';
import { maybeRecordHistory, until } from '../lifecycle/support';

const taskQueue = `audit-seal-${Date.now()}`;
const keys = newSealKeyPair();
const publicKeys = sealPublicKeys(keys.publicKey);
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let proxy: FaultProxy;
let api: TestApi;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  clone = await cloneDatabase();
  pool = new pg.Pool({ ...poolConfigFromUrl(clone.url), max: 3 });
  pool.on('error', () => undefined);
  const proxied = await proxyFor(clone.url);
  proxy = proxied.proxy;
  api = await startApi();
  stopWorker = await startWorker(api, taskQueue, {
    auditSeal: {
      databaseUrl: proxied.url,
      key: sealSigningKey(keys.privateKey),
      gapHorizonMs: 60_000,
      queryTimeoutMs: 1_500,
    },
  });
});
afterAll(async () => {
  proxy?.heal();
  await stopWorker?.();
  await api?.close();
  await proxy?.close();
  await pool?.end();
  await clone?.drop();
});

const addRows = async (n: number) =>
  pool.query(
    `INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", "action")
     SELECT 'seal-workflow', 'Test', g::text, 'TESTED' FROM generate_series(1, $1::int) AS g`,
    [n],
  );
const verify = async (witness?: { id: string; hash: string } | null) => {
  const client = await pool.connect();
  try {
    return await verifyAuditTrail(client, { publicKeys, lateAfterMs: 60_000, witness });
  } finally {
    client.release();
  }
};
let runs = 0;
const start = (input: AuditSealInput) =>
  api.deps.temporal.workflow.start(AUDIT_SEAL_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: `${taskQueue}-run-${++runs}`,
    args: [input],
    workflowExecutionTimeout: '3 minutes',
  });

describe('the audit seal workflow', () => {
  it('seals every row in steps and returns the newest seal', async () => {
    await addRows(130);
    const run = await start({ maxRowsPerSeal: 50 });
    const result = (await run.result()) as AuditSealResult;
    await maybeRecordHistory({ client: api.deps.temporal }, run.workflowId, 'audit-seal', 'steps');
    expect(result.seals).toBeGreaterThanOrEqual(3);
    expect(result.rows).toBeGreaterThanOrEqual(130);
    const v = await verify(result.newest);
    expect(v.findings).toEqual([]);
    expect(v.awaitingSeal).toBe(0);
    expect(v.newestSeal).toEqual(result.newest);
  });

  it('keeps retrying while PostgreSQL is frozen past its timeout, then catches up without gaps', async () => {
    await addRows(20);
    proxy.fail('hang');
    let handle;
    try {
      handle = await start({ maxRowsPerSeal: 50, stepTimeout: '4 seconds' });
      const run = handle;
      await until(
        async () => {
          const pending = (await run.describe()).raw.pendingActivities ?? [];
          return pending.some((a) => (a.attempt ?? 0) >= 2);
        },
        'a sealing step to fail at least once while PostgreSQL is frozen',
        60_000,
      );
      // Rows committed meanwhile, straight to PostgreSQL: the run must seal them too once it gets through.
      await addRows(15);
    } finally {
      proxy.heal();
    }
    const result = (await handle.result()) as AuditSealResult;
    await maybeRecordHistory({ client: api.deps.temporal }, handle.workflowId, 'audit-seal', 'caught-up-after-frozen');
    const v = await verify(result.newest);
    expect(v.findings).toEqual([]);
    expect(v.awaitingSeal).toBe(0);
    expect(result.rows).toBe(35);
  });

  it('seals on its schedule, and the schedule is the witness the verifier reads', async () => {
    const scheduleId = `${taskQueue}-schedule`;
    await addRows(5);
    await ensureAuditSealSchedule(api.deps.temporal, { every: '2 seconds', taskQueue, scheduleId });
    try {
      let witness: Awaited<ReturnType<typeof newestWitnessedSeal>> = null;
      await until(
        async () => {
          witness = await newestWitnessedSeal(api.deps.temporal, scheduleId);
          return witness !== null && (await verify()).awaitingSeal === 0;
        },
        'the schedule to seal the new rows and complete a run',
        60_000,
      );
      const v = await verify(witness);
      expect(v.findings).toEqual([]);
      expect(v.witnessed).toEqual(witness);
    } finally {
      await api.deps.temporal.schedule.getHandle(scheduleId).delete();
    }
  });
});
