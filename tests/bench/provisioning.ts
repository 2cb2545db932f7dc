/**
 * Provisioning (issue 41, docs/decisions.md "Provisioning") on a stack of the bench's own, against scim2-server
 * targets of the bench's own (each starts empty):
 * - BENCH_PROVISION_PEOPLE (10,000) people given access to a provisioned system at once, until the stack's own
 *   worker has every account in sync, beside a bare loop of the same SCIM calls (look up by externalId, create)
 *   from this one process against a second, empty target (target: at most 1.5 × the bare loop);
 * - reconciliation of BENCH_RECONCILE_ACCOUNTS (100,000) accounts (the target filled through SCIM /Bulk, the
 *   portal's people in SQL, a tenth of them drifted or missing): the reconciliation activities run here, in
 *   this process, so their time and peak memory (heap and RSS sampled every 50 ms) are measured, beside the
 *   target's own listing of every account in the same pages, nothing else (target: memory stays bounded:
 *   peak heap growth under 200 MB).
 *
 *   cd tests && npx tsx --conditions=development bench/provisioning.ts
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { MockActivityEnvironment } from '@temporalio/testing';
import {
  PROVISIONING_SEAL_PURPOSE,
  createPrisma,
  poolConfigFromUrl,
  sealText,
  wantedAccounts,
  Prisma,
} from '@portal/db';
import { freePort, startScimServer, type ScimHandle } from '@portal/scripts';
import { ScimClient, userResource } from '@portal/scim';
import { createProvisionReconcileActivities } from '../../worker/src/activities/provisioning-reconcile';
import { runAlone } from './stack';
import type { ThrowawayStack } from '../support/throwaway-stack';

const PEOPLE = Number(process.env.BENCH_PROVISION_PEOPLE ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_RECONCILE_ACCOUNTS ?? 100_000);
export const PROVISIONING_TARGETS = { ratioToBareLoop: 1.5, reconcileHeapGrowthMb: 200 };
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A system of the bench's own with `people` people holding it (one access record each). @returns its id. */
async function systemWithPeople(pool: pg.Pool, tag: string, people: number): Promise<number> {
  const system = await pool.query<{ id: number }>(
    `INSERT INTO "SystemAccess" ("systemName", "sort") VALUES ($1, 990) RETURNING "id"`,
    [`Bench ${tag} ${crypto.randomBytes(3).toString('hex')}`],
  );
  const id = system.rows[0]!.id;
  await pool.query(
    `WITH u AS (
       INSERT INTO "PortalUser" ("username", "firstName", "lastName", "email", "updatedAt")
       SELECT 'b' || $2 || '.' || g, 'Bench', 'Person ' || g, 'b' || $2 || '.' || g || '@bench.portal.test', now()
         FROM generate_series(1, $3::int) g RETURNING "id")
     INSERT INTO "UserAccess" ("portalUserId", "roleName", "siteCodes", "studyNames", "systemAccessIds", "createdBy", "lastModifiedBy")
     SELECT u."id", 'Research Pharmacist', '{MA036}', '{E1234}', ARRAY[$1::int], 'bench', 'bench' FROM u`,
    [id, tag, people],
  );
  return id;
}

const connect = (pool: pg.Pool, systemId: number, target: ScimHandle, token: string, key: string, enabled: boolean) =>
  pool.query(
    `INSERT INTO "ProvisioningConnection" ("systemAccessId", "baseUrl", "tokenSealed", "enabled", "updatedAt")
     VALUES ($1, $2, $3, $4, now())`,
    [systemId, target.url, sealText(key, PROVISIONING_SEAL_PURPOSE, token), enabled],
  );

async function target(): Promise<{ handle: ScimHandle; token: string }> {
  const token = crypto.randomBytes(18).toString('base64url');
  return { handle: await startScimServer({ port: await freePort(), token, log: () => undefined }), token };
}

/** The stack's worker provisions everyone of a new system; then the bare loop of the same calls. */
async function measureProvisioning(pool: pg.Pool, stack: ThrowawayStack) {
  const key = stack.portalEnv.PROVISIONING_KEY!;
  const [portalTarget, bareTarget] = [await target(), await target()];
  try {
    const systemId = await systemWithPeople(pool, 'prov', PEOPLE);
    await connect(pool, systemId, portalTarget.handle, portalTarget.token, key, true);
    const started = performance.now();
    // As the writers do (noteProvisioning), for everyone at once, in one transaction.
    await pool.query(
      `WITH n AS (INSERT INTO "ProvisioningNotice" ("systemAccessId", "portalUserId")
                  SELECT $1, a."portalUserId" FROM "UserAccess" a WHERE $1 = ANY(a."systemAccessIds") RETURNING "portalUserId")
       INSERT INTO "ProvisioningAccount" ("systemAccessId", "portalUserId") SELECT $1, "portalUserId" FROM n`,
      [systemId],
    );
    await pool.query(`SELECT pg_notify('provisioning_notice', '')`);
    for (;;) {
      const r = await pool.query<{ n: number; e: number }>(
        `SELECT count(*) FILTER (WHERE "state" = 'IN_SYNC')::int AS n, count(*) FILTER (WHERE "state" = 'ERROR')::int AS e
           FROM "ProvisioningAccount" WHERE "systemAccessId" = $1`,
        [systemId],
      );
      if (r.rows[0]!.e) throw new Error(`${r.rows[0]!.e} accounts ended in ERROR`);
      if (r.rows[0]!.n >= PEOPLE) break;
      await new Promise((res) => setTimeout(res, 500));
    }
    const portalMs = performance.now() - started;
    // When the listener had signalled the last person (the rest of the time is the workflows' own).
    const marked = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM max("workflowStartedAt") - min("createdAt")) * 1000 AS ms
         FROM "ProvisioningNotice" WHERE "systemAccessId" = $1`,
      [systemId],
    );

    // The bare loop: the same wanted accounts, the same two calls each, one after another from here.
    const prisma = createPrisma(stack.urls.database);
    try {
      const wanted = await wantedAccounts(
        prisma,
        systemId,
        Prisma.sql`u."id" IN (SELECT "portalUserId" FROM "UserAccess" WHERE ${systemId}::int4 = ANY("systemAccessIds"))`,
      );
      const scim = new ScimClient({ baseUrl: bareTarget.handle.url, token: bareTarget.token });
      const bareStarted = performance.now();
      for (const w of wanted) {
        if (!(await scim.findByExternalId(w.subjectId))) await scim.create(userResource(w, 'EXTENSION'));
      }
      const bareMs = performance.now() - bareStarted;
      return {
        people: PEOPLE,
        portalSeconds: seconds(portalMs),
        allSignalledSeconds: seconds(Number(marked.rows[0]!.ms)),
        bareLoopSeconds: seconds(bareMs),
        ratio: Math.round((portalMs / bareMs) * 100) / 100,
      };
    } finally {
      await prisma.$disconnect();
    }
  } finally {
    await portalTarget.handle.stop();
    await bareTarget.handle.stop();
  }
}

/** Fills a target with the accounts of `systemId`'s people through /Bulk, a tenth drifted, a twentieth left out. */
async function fillTarget(pool: pg.Pool, systemId: number, t: { handle: ScimHandle; token: string }) {
  const rows = await pool.query<{ subjectId: string; username: string; email: string; n: number }>(
    `SELECT u."subjectId"::text AS "subjectId", u."username", u."email", row_number() OVER (ORDER BY u."id")::int AS n
       FROM "PortalUser" u JOIN "UserAccess" a ON a."portalUserId" = u."id" WHERE $1 = ANY(a."systemAccessIds")`,
    [systemId],
  );
  const kept = rows.rows.filter((r) => r.n % 20 !== 0);
  for (let i = 0; i < kept.length; i += 1000) {
    const Operations = kept.slice(i, i + 1000).map((r) => ({
      method: 'POST',
      path: '/Users',
      bulkId: r.subjectId,
      data: userResource(
        {
          subjectId: r.subjectId,
          userName: r.username,
          givenName: 'Bench',
          familyName: `Person ${r.n}`,
          email: r.n % 10 === 0 ? `drifted.${r.email}` : r.email,
          active: true,
          access: [{ studyRole: 'Research Pharmacist', study: 'E1234', organization: 'MA036' }],
        },
        'EXTENSION',
      ),
    }));
    const res = await fetch(`${t.handle.url}/Bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations }),
    });
    if (!res.ok) throw new Error(`POST /Bulk answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
  return kept.length;
}

async function measureReconciliation(pool: pg.Pool, stack: ThrowawayStack) {
  const key = stack.portalEnv.PROVISIONING_KEY!;
  const t = await target();
  const prisma = createPrisma(stack.urls.database);
  try {
    const systemId = await systemWithPeople(pool, 'recon', ACCOUNTS);
    // Off: the stack's worker must not provision what the bench compares.
    await connect(pool, systemId, t.handle, t.token, key, false);
    const held = await fillTarget(pool, systemId, t);

    const scim = new ScimClient({ baseUrl: t.handle.url, token: t.token, timeoutMs: 120_000 });
    let started = performance.now();
    for (let start = 1; ; start += 500) {
      const { users, total } = await scim.listUsers(start, 500);
      if (!users.length || start + users.length > total) break;
    }
    const listingMs = performance.now() - started;

    const activities = createProvisionReconcileActivities(prisma, { key });
    const env = new MockActivityEnvironment({ startToCloseTimeoutMs: 600_000 });
    global.gc?.();
    const base = process.memoryUsage();
    let peakHeap = base.heapUsed;
    let peakRss = base.rss;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }, 50);
    started = performance.now();
    try {
      const id: number = await env.run(activities.beginReconciliation, { systemAccessId: systemId });
      let next: number | null = 1;
      while (next !== null) {
        next = await env.run(activities.reconcileChunk, {
          reconciliationId: id,
          startIndex: next,
          chunk: 10_000,
          pageSize: 500,
        });
      }
      await env.run(activities.finishReconciliation, { reconciliationId: id });
      const reconcileMs = performance.now() - started;
      const run = await prisma.provisioningReconciliation.findUniqueOrThrow({ where: { id } });
      return {
        accounts: ACCOUNTS,
        heldAtTarget: held,
        reconcileSeconds: seconds(reconcileMs),
        targetListingSeconds: seconds(listingMs),
        peakHeapGrowthMb: mb(peakHeap - base.heapUsed),
        peakRssGrowthMb: mb(peakRss - base.rss),
        found: { targetAccounts: run.targetAccounts, missing: run.missing, drifted: run.drifted, orphans: run.orphans },
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await prisma.$disconnect();
    await t.handle.stop();
  }
}

export async function measureProvisioningBench(stack: ThrowawayStack) {
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 4 });
  try {
    return {
      provisioning: await measureProvisioning(pool, stack),
      reconciliation: await measureReconciliation(pool, stack),
    };
  } finally {
    await pool.end();
  }
}

export function provisioningMissed(r: Awaited<ReturnType<typeof measureProvisioningBench>>): string[] {
  const missed: string[] = [];
  if (r.provisioning.ratio > PROVISIONING_TARGETS.ratioToBareLoop)
    missed.push(`provisioning took ${r.provisioning.ratio} × the bare loop > ${PROVISIONING_TARGETS.ratioToBareLoop}`);
  if (r.reconciliation.peakHeapGrowthMb > PROVISIONING_TARGETS.reconcileHeapGrowthMb)
    missed.push(
      `reconciliation grew the heap by ${r.reconciliation.peakHeapGrowthMb} MB > ${PROVISIONING_TARGETS.reconcileHeapGrowthMb}`,
    );
  return missed;
}

runAlone(import.meta.url, 'bench-provisioning', measureProvisioningBench, (r) => ({
  targets: PROVISIONING_TARGETS,
  ...r,
  missed: provisioningMissed(r),
}));
