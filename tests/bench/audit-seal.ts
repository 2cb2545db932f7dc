/**
 * The audit trail's seals (docs/decisions.md "A tamper-evident audit trail") at BENCH_AUDIT_ROWS (default
 * 5,000,000) audit rows, on a stack of the bench's own:
 * - `npm run audit:verify`'s work (verifyAuditTrail) over every row (target: under 60 s on two cores), beside
 *   its floor measured in the same run: PostgreSQL computing the same row digests in one scan, nothing else;
 * - sealing them all from nothing (steps of 50,000 rows): seconds and rows per second;
 * - writers beside the sealer: single-row audit INSERTs from 4 connections for BENCH_AUDIT_WRITE_S (10) s
 *   with a sealer stepping every BENCH_AUDIT_SEAL_EVERY_MS (1,000: sixty times the schedule's default pace),
 *   beside the same without it, alternated twice (target: no drop beyond 10 %).
 * The stack's own worker seals nothing here (AUDIT_SEAL_PRIVATE_KEY ''), so the bench's sealer starts from
 * nothing.
 *
 *   cd tests && npx tsx --conditions=development bench/audit-seal.ts
 */
import pg from 'pg';
import {
  ROW_DIGEST_SQL,
  newSealKeyPair,
  poolConfigFromUrl,
  sealNextRows,
  sealPublicKeys,
  sealSigningKey,
  verifyAuditTrail,
} from '@portal/db';
import { seedAudit, withoutSecondaryIndexes } from './growth-seed';
import { runAlone } from './stack';
import type { ThrowawayStack } from '../support/throwaway-stack';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 5_000_000);
const WRITE_S = Number(process.env.BENCH_AUDIT_WRITE_S ?? 10);
const SEAL_EVERY_MS = Number(process.env.BENCH_AUDIT_SEAL_EVERY_MS ?? 1000);
// Before the stack starts: its worker must not seal the bench's rows first.
process.env.AUDIT_SEAL_PRIVATE_KEY = '';
export const AUDIT_SEAL_TARGETS = { verifySeconds: 60, writeDropRatio: 0.1 };
const BACKDATED_MS = 11 * 365 * 86_400_000;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Single-row INSERTs from `connections` connections for `s` seconds; @returns rows per second. */
async function writeRate(pool: pg.Pool, connections: number, s: number): Promise<number> {
  const until = Date.now() + s * 1000;
  let rows = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        await pool.query(
          `INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", "action") VALUES ('bench-writer', 'Bench', 'x', 'WRITTEN')`,
        );
        rows += 1;
      }
    }),
  );
  return Math.round(rows / s);
}

export async function measureAuditSeal(stack: ThrowawayStack) {
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 8 });
  const key = sealSigningKey(newSealKeyPair().privateKey);
  try {
    await withoutSecondaryIndexes(pool, ['AuditEvent'], () => seedAudit(pool, ROWS));
    await pool.query('VACUUM ANALYZE "AuditEvent"');
    const client = await pool.connect();
    try {
      let started = performance.now();
      for (;;) if (!(await sealNextRows(client, { key, maxRows: 50_000, gapHorizonMs: 600_000 })).more) break;
      const sealMs = performance.now() - started;

      started = performance.now();
      await client.query(`SELECT count(*), max(${ROW_DIGEST_SQL}) FROM "AuditEvent" e`);
      const floorMs = performance.now() - started;
      // The seeded rows are dated over ten years back on purpose (the growth seed's history): not 'late' here.
      const v = await verifyAuditTrail(client, {
        publicKeys: sealPublicKeys(key.publicRaw),
        lateAfterMs: BACKDATED_MS,
      });
      if (!v.ok) throw new Error(`the bench's own trail did not verify: ${JSON.stringify(v.findings.slice(0, 3))}`);

      const besideSealer = async () => {
        let sealing = true;
        const sealer = (async () => {
          while (sealing) {
            await sealNextRows(client, { key, maxRows: 50_000, gapHorizonMs: 600_000 });
            await new Promise((r) => setTimeout(r, SEAL_EVERY_MS));
          }
        })();
        const rate = await writeRate(pool, 4, WRITE_S);
        sealing = false;
        await sealer;
        return rate;
      };
      const alone = [await writeRate(pool, 4, WRITE_S)];
      const beside = [await besideSealer()];
      alone.push(await writeRate(pool, 4, WRITE_S));
      beside.push(await besideSealer());
      const writesAlone = Math.round((alone[0]! + alone[1]!) / 2);
      const writesBesideSealer = Math.round((beside[0]! + beside[1]!) / 2);
      return {
        rows: v.rows,
        seals: v.seals,
        verifySeconds: seconds(v.ms),
        digestScanFloorSeconds: seconds(floorMs),
        sealAllSeconds: seconds(sealMs),
        sealRowsPerSecond: Math.round(v.rows / (sealMs / 1000)),
        writesPerSecondAlone: writesAlone,
        writesPerSecondBesideSealer: writesBesideSealer,
      };
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

export function auditSealMissed(r: Awaited<ReturnType<typeof measureAuditSeal>>): string[] {
  const missed: string[] = [];
  if (r.verifySeconds > AUDIT_SEAL_TARGETS.verifySeconds)
    missed.push(`verifying ${r.rows} rows took ${r.verifySeconds} s > ${AUDIT_SEAL_TARGETS.verifySeconds} s`);
  const drop = 1 - r.writesPerSecondBesideSealer / r.writesPerSecondAlone;
  if (drop > AUDIT_SEAL_TARGETS.writeDropRatio)
    missed.push(
      `writes beside the sealer dropped ${Math.round(drop * 100)} % (> ${AUDIT_SEAL_TARGETS.writeDropRatio * 100} %)`,
    );
  return missed;
}

runAlone(import.meta.url, 'bench-audit-seal', measureAuditSeal, (r) => ({
  ...r,
  targets: AUDIT_SEAL_TARGETS,
  missed: auditSealMissed(r),
}));
