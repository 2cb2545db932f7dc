/**
 * Two figures of the growth bench (growth.ts) on their own, at its largest size, without the other lists:
 * - the load-all answers (000 §9: page 1, size 1,000,000) of the queue and the Users list, each list first, second
 *   and twice, each on a fresh API process that carries the heap probe (heap-probe.mjs): resident memory growth
 *   as the growth bench measures it, and the heap itself (the peak of `heapUsed` over a fully collected heap
 *   just before, and what a full collection leaves after), which tells live memory from garbage not yet collected;
 * - the audit trail's first page in each order at BENCH_LOADALL_SMALL (default 10,000) requests and at
 *   BENCH_LOADALL_SIZE (default 1,000,000), with BENCH_GROWTH_AUDIT_FACTOR (5) times as many audit rows: p95 (the
 *   median of 3 rounds of BENCH_GROWTH_TIMES, default 100) and the plan (EXPLAIN ANALYZE, BUFFERS) at each size.
 *
 *   cd tests && npx tsx --conditions=development bench/load-all-memory.ts
 *
 * With BENCH_LOADALL_REPEAT_ON=<file>, the stack stays up after the figures and the load-all figures are measured
 * again (from api/dist as it is then) each time <file> appears; <file>.stop ends the run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { AUDIT_SORT_FIELDS, type AuditQuery } from '@portal/contract';
import { poolConfigFromUrl } from '@portal/db';
import { freePort, waitForHttp } from '@portal/scripts';
import { auditEventsSql } from '../../api/src/features/audit/list-sql';
import { seedAudit, seedRequests, seedUsers, settle, withoutSecondaryIndexes } from './growth-seed';
import { LOAD_ALL } from './growth-extras';
import { signIn, startBenchStack } from './stack';
import { keepAliveClient, percentile } from './timing';

const REPO = path.join(import.meta.dirname, '..', '..');
const SMALL = Number(process.env.BENCH_LOADALL_SMALL ?? 10_000);
const SIZE = Number(process.env.BENCH_LOADALL_SIZE ?? 1_000_000);
const AUDIT_FACTOR = Number(process.env.BENCH_GROWTH_AUDIT_FACTOR ?? 5);
const TIMES = Number(process.env.BENCH_GROWTH_TIMES ?? 100);
const PARTS = (process.env.BENCH_LOADALL_PARTS ?? 'memory,audit').split(',');
const MB = 1024 * 1024;
const round = (n: number) => Math.round(n * 10) / 10;

type Memory = NodeJS.MemoryUsage;
interface Probe {
  peak: Memory;
  now: Memory;
  afterGc: Memory;
}

/** An API process of the bench's own with the heap probe; `probe()` reads it (heap-probe.mjs). */
async function startProbedApi(env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const file = path.join(os.tmpdir(), `heap-probe-${port}.json`);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      path.join(import.meta.dirname, 'heap-probe.mjs'),
      path.join(REPO, 'api', 'dist', 'main.js'),
    ],
    {
      cwd: REPO,
      env: {
        ...env,
        PORT: String(port),
        ELEARNING_PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        HEAP_PROBE_FILE: file,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/rest/public/health`, 'probed api', 120_000, () => child.exitCode === null);
  const probe = async (): Promise<Probe> => {
    fs.rmSync(file, { force: true });
    child.kill('SIGUSR2');
    for (;;) {
      await sleep(20);
      if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Probe;
    }
  };
  return { base, pid: child.pid!, probe, stop: () => void child.kill('SIGTERM') };
}

/** Resident memory of `pid` (MB), as growth-extras.ts reads it. */
const rssMb = (pid: number): number =>
  Number(
    fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'))
      ?.replace(/\D+/g, '') ?? 0,
  ) / 1024;

/** Downloads `url` whole, sampling the RSS of `pid` every 50 ms. @returns bytes, ms and the RSS peak (MB). */
function download(base: string, url: string, headers: Record<string, string>, pid: number) {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  return new Promise<{ bytes: number; ms: number; rssPeakMb: number }>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        let bytes = 0;
        let last = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (c.length) last = c[c.length - 1]!;
        });
        res.on('end', () => {
          clearInterval(sampler);
          // A JSON answer ends with `}`: one cut off midway would give a figure that was never earned.
          if (last !== 0x7d) reject(new Error(`${url}: the answer was cut off after ${bytes} bytes`));
          resolve({ bytes, ms: performance.now() - started, rssPeakMb: peak });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Each order of the two load-all lists, on a fresh probed API process each. */
async function measureMemory(env: NodeJS.ProcessEnv, headers: Record<string, string>) {
  const urls = Object.fromEntries(LOAD_ALL.map((l) => [l.list, `${l.url}&page=1&size=1000000`]));
  const orders = [
    ['queue', 'users'],
    ['users', 'queue'],
    ['queue', 'queue'],
  ];
  const out = [];
  for (const order of orders) {
    const api = await startProbedApi(env);
    try {
      // One small page of each first: the code paths compiled and the pools open, as in the growth bench.
      for (const l of LOAD_ALL) await download(api.base, `${l.url}&page=1&size=25`, headers, api.pid);
      for (const [i, list] of order.entries()) {
        const before = await api.probe();
        await sleep(1000);
        const rssBefore = rssMb(api.pid);
        const got = await download(api.base, urls[list]!, headers, api.pid);
        const after = await api.probe();
        out.push({
          order: order.join(' then '),
          call: `${i + 1}: ${list}`,
          mb: round(got.bytes / 1e6),
          s: round(got.ms / 1000),
          rssGrowthMb: round(got.rssPeakMb - rssBefore),
          rssBeforeMb: round(rssBefore),
          heapBeforeMb: round(before.afterGc.heapUsed / MB),
          heapPeakGrowthMb: round((after.peak.heapUsed - before.afterGc.heapUsed) / MB),
          heapTotalPeakMb: round(after.peak.heapTotal / MB),
          externalPeakMb: round(after.peak.external / MB),
          heapLeftAfterGcMb: round((after.afterGc.heapUsed - before.afterGc.heapUsed) / MB),
        });
      }
    } finally {
      api.stop();
    }
  }
  console.table(out);
  return out;
}

/** The first page of the audit trail in `sort` (the API route): p95 ms, the median of 3 rounds of TIMES. */
async function auditPages(base: string, headers: Record<string, string>) {
  const client = keepAliveClient(base, headers);
  const sorts = AUDIT_SORT_FIELDS.flatMap((f) => [`${f},asc`, `${f},desc`]);
  const views = [
    ...sorts.map((s) => ({ view: `audit ${s}`, url: `/rest/secure/audit_trail?page=1&size=25&sort=${s}` })),
    { view: 'baseline', url: '/rest/secure/user_capabilities/granted_permissions' },
  ];
  const p95s = new Map<string, number[]>(views.map((v) => [v.view, []]));
  try {
    for (let r = 0; r < 3; r++) {
      for (const v of views) {
        for (let i = 0; i < 5; i++) await client.get(v.url);
        const ms: number[] = [];
        for (let i = 0; i < TIMES; i++) {
          const started = performance.now();
          await client.get(v.url);
          ms.push(performance.now() - started);
        }
        p95s.get(v.view)!.push(percentile(ms, 95));
      }
    }
  } finally {
    client.close();
  }
  return Object.fromEntries([...p95s].map(([view, p]) => [view, Math.round(percentile(p, 50) * 100) / 100]));
}

/** EXPLAIN (ANALYZE, BUFFERS) of the audit trail's first page in `sort`. */
async function explainAudit(pool: pg.Pool, sort: string): Promise<string> {
  const [field, dir] = sort.split(',') as [string, 'asc' | 'desc'];
  const { rows } = auditEventsSql({ page: 1, size: 25, sort } as AuditQuery, field, dir);
  const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${rows.text}`, rows.values);
  return plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
}

/** Tops the bench database up to `size` users and requests and AUDIT_FACTOR times as many audit rows. */
async function seed(pool: pg.Pool, size: number) {
  await withoutSecondaryIndexes(
    pool,
    ['PortalUser', 'AccessModRequest', 'UserRequestQueue', 'AuditEvent'],
    async () => {
      await seedUsers(pool, size);
      await seedRequests(pool, size);
      await seedAudit(pool, size * AUDIT_FACTOR);
    },
  );
  await settle(pool);
}

async function main(): Promise<void> {
  const stack = await startBenchStack('bench-loadall', {
    ...process.env,
    POSTGRES_SHARED_BUFFERS: process.env.POSTGRES_SHARED_BUFFERS ?? '4GB',
  });
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  try {
    const admin = await signIn(stack.urls.portal, 'admin');
    const audit: Record<string, unknown> = {};
    const explain = process.env.BENCH_LOADALL_EXPLAIN ?? 'entityType,desc';
    if (PARTS.includes('audit')) {
      await seed(pool, SMALL);
      audit[`p95 @${SMALL}`] = await auditPages(stack.urls.portal, admin.headers);
      console.log(`plan of ${explain} @${SMALL}\n${await explainAudit(pool, explain)}`);
    }
    await seed(pool, SIZE);
    if (PARTS.includes('audit')) {
      audit[`p95 @${SIZE}`] = await auditPages(stack.urls.portal, admin.headers);
      console.log(`plan of ${explain} @${SIZE}\n${await explainAudit(pool, explain)}`);
      console.table(audit);
    }
    if (PARTS.includes('memory')) await measureMemory(stack.env, admin.headers);
    const again = process.env.BENCH_LOADALL_REPEAT_ON;
    while (again && !fs.existsSync(`${again}.stop`)) {
      await sleep(1000);
      if (!fs.existsSync(again)) continue;
      fs.rmSync(again);
      console.log(`again at ${new Date().toISOString()}`);
      if (PARTS.includes('audit')) console.log(`plan of ${explain}\n${await explainAudit(pool, explain)}`);
      await measureMemory(stack.env, admin.headers);
    }
  } finally {
    await pool.end();
    await stack.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
