/**
 * The growth bench's other figures (issue 24 Growth), each measured beside its own baseline in the same run:
 * - the access-modification report over every seeded request, and the load-all answer (page 1, size 1,000,000)
 *   of the queue and the Users list (the audit trail has none), on an API process of the bench's own (its pid known):
 *   time to the first byte, to the last, and the process's resident memory growth while it streams;
 * - filing an access-change request (p50) against a bare Temporal workflow start plus one INSERT;
 * - the queue's first page under load on one API process and on two side by side (pages per second).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { poolConfigFromUrl } from '@portal/db';
import { freePort, waitForHttp } from '@portal/scripts';
import type { BenchSession } from './stack';
import { median } from './timing';
import { dataManagerBlock } from './role-block';

const REPO = path.join(import.meta.dirname, '..', '..');

/** Resident memory of process `pid` in MB (Linux /proc). */
const rssMb = (pid: number): number => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
};

/** A second API process on the bench stack's services (built JavaScript, as the stack runs its own). */
export async function startExtraApi(env: NodeJS.ProcessEnv): Promise<{ base: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO, 'api', 'dist', 'main.js')], {
    cwd: REPO,
    env: { ...env, PORT: String(port), ELEARNING_PORT: String(await freePort()), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/rest/public/health`, 'bench api', 120_000, () => child.exitCode === null);
  return { base, pid: child.pid!, stop: () => void child.kill('SIGTERM') };
}

/**
 * What one streamed download cost: bytes, ms to the first byte and to the end, resident memory growth (MB),
 * and whether the answer arrived whole (a JSON answer ends with `}`: one cut off midway does not).
 */
export interface DownloadFigure {
  bytes: number;
  whole: boolean;
  firstByteMs: number;
  totalMs: number;
  memoryGrowthMb: number;
}

/**
 * Downloads `url` from `base` with `headers`, sampling the API's memory (`pid`) every 50 ms. @returns bytes, ms
 * to the first byte and to the end, and the growth of resident memory (MB) over the memory just before the call.
 * @throws when the answer is not 200.
 */
export async function measureDownload(
  base: string,
  url: string,
  headers: Record<string, string>,
  pid: number,
): Promise<DownloadFigure> {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  try {
    return await new Promise((resolve, reject) => {
      const req = http.get(`${base}${url}`, { headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        let firstByteMs = 0;
        let bytes = 0;
        let last = 0;
        res.on('data', (c: Buffer) => {
          if (!bytes) firstByteMs = performance.now() - started;
          bytes += c.length;
          if (c.length) last = c[c.length - 1]!;
        });
        res.on('error', reject);
        res.on('aborted', () => reject(new Error(`${url}: the answer was cut off`)));
        res.on('end', () =>
          resolve({
            bytes,
            whole: !res.headers['content-type']?.includes('json') || last === 0x7d,
            firstByteMs,
            totalMs: performance.now() - started,
            memoryGrowthMb: peak - before,
          }),
        );
      });
      req.on('error', reject);
    });
  } finally {
    clearInterval(sampler);
  }
}

/** The access-modification report over every request (measureDownload). */
export const measureReport = (base: string, headers: Record<string, string>, pid: number) =>
  measureDownload(base, '/rest/secure/user_access_mod_request/report', headers, pid);

/**
 * 000 §9's load-all calls (page 1, size 1,000,000) of the long lists that have one, the queue and the Users
 * list, each streamed whole, beside the same list's first page of 25 read the same way (the baseline: what a
 * call costs that holds nothing). The audit trail has no load-all: its page size is capped (422 above it).
 */
export const LOAD_ALL = [
  { list: 'queue', url: '/rest/secure/user_management/user_requests/all?sort=dateSubmitted,desc' },
  { list: 'users', url: '/rest/secure/user_management/users?sort=person.lastName,asc' },
] as const;

/**
 * Each LOAD_ALL list downloaded whole, on an API process of its own started for it (`env`: the stack's), so no
 * list inherits the heap another one grew: `cold`, the first load-all of the fresh process (what the first one
 * after a start costs, the figure the target applies to), then `warm`, the same call again on it (V8 reuses the
 * heap the first one grew), beside its first page read the same way. Each call is measured after a second's
 * pause.
 */
export async function measureLoadAll(
  env: NodeJS.ProcessEnv,
  headers: Record<string, string>,
): Promise<Array<{ list: string; cold: DownloadFigure; warm: DownloadFigure; firstPage: DownloadFigure }>> {
  const out = [];
  for (const { list, url } of LOAD_ALL) {
    const api = await startExtraApi(env);
    try {
      const call = async (size: number) => {
        await new Promise((r) => setTimeout(r, 1000));
        return measureDownload(api.base, `${url}&page=1&size=${size}`, headers, api.pid);
      };
      const firstPage = await call(25);
      const cold = await call(1_000_000);
      const warm = await call(1_000_000);
      out.push({ list, cold, warm, firstPage });
    } finally {
      api.stop();
    }
  }
  return out;
}

/**
 * Files `times` access-change requests as `user` (each then approved by `reviewer`, so the role may be asked
 * for again) and, in turn with each filing, one bare Temporal workflow start (a type no worker polls) plus one
 * INSERT into a scratch table. @returns both medians (ms) and their ratio.
 */
export async function measureFiling(opts: {
  base: string;
  user: BenchSession;
  reviewer: BenchSession;
  databaseUrl: string;
  temporalAddress: string;
  times: number;
}): Promise<{ fileP50Ms: number; bareP50Ms: number; ratio: number }> {
  const call = async (s: BenchSession, method: string, url: string, body?: unknown) => {
    for (;;) {
      const res = await fetch(`${opts.base}${url}`, {
        method,
        headers: { ...s.headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 202) continue; // still processing: the same save again (REQUEST-LIFECYCLE rule 6)
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    }
  };
  const profile = (await call(opts.user, 'GET', '/rest/secure/user_profile')) as { portalUserId: number };
  const body = {
    portalUserId: profile.portalUserId,
    requestType: 'NEW',
    accessControls: [await dataManagerBlock(opts.base)],
    requesterComments: 'growth bench',
  };
  const pool = new pg.Pool({ ...poolConfigFromUrl(opts.databaseUrl), max: 1 });
  const connection = await Connection.connect({ address: opts.temporalAddress });
  const temporal = new Client({ connection });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_filing_baseline (id serial PRIMARY KEY, body jsonb NOT NULL)');
  const file: number[] = [];
  const bare: number[] = [];
  try {
    for (let i = -2; i < opts.times; i++) {
      let started = performance.now();
      const filed = await call(opts.user, 'POST', '/rest/secure/user_access_mod_request', body);
      if (i >= 0) file.push(performance.now() - started);
      started = performance.now();
      await temporal.workflow.start('benchBareWorkflow', {
        taskQueue: 'bench-bare-no-worker',
        workflowId: `bench-bare-${randomUUID()}`,
        args: [body],
      });
      await pool.query('INSERT INTO bench_filing_baseline (body) VALUES ($1)', [JSON.stringify(body)]);
      if (i >= 0) bare.push(performance.now() - started);
      for (const [versionno, requestStatus] of [
        [0, 'IN_PROGRESS'],
        [1, 'APPROVED'],
      ] as const) {
        await call(opts.reviewer, 'PUT', '/rest/secure/user_management/review_access_change_request', {
          userAccessModificationRequest: {
            id: filed.id,
            versionno,
            requestStatus,
            reviewerComments: 'bench',
            sysaidTicket: '',
          },
          attemptKey: randomUUID(),
        });
      }
    }
  } finally {
    await connection.close();
    await pool.end();
  }
  return { fileP50Ms: median(file), bareP50Ms: median(bare), ratio: median(file) / median(bare) };
}

/**
 * The queue's first page under load (autocannon, 10 connections per process, `seconds` s): on `bases[0]`
 * alone, then on every process of `bases` at once. @returns pages per second of each run.
 */
export async function measureThroughput(
  bases: string[],
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<{ oneProcess: number; twoProcesses: number }> {
  const run = async (targets: string[]) => {
    const results = await Promise.all(
      targets.map((b) => autocannon({ url: `${b}${url}`, connections: 10, duration: seconds, headers })),
    );
    for (const r of results) if (r.non2xx || r.errors) throw new Error(`load: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return results.reduce((sum, r) => sum + r.requests.total, 0) / seconds;
  };
  return { oneProcess: await run(bases.slice(0, 1)), twoProcesses: await run(bases) };
}
