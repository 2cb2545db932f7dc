/**
 * The dashboard's resources (issue 23 Speed; a benchmark script, not a timed test), on a stack of its own:
 * - a person's dashboard items with 1,000 items and 50 portal roles (the person holds all 50, each item is tied
 *   to three): p50 / p95 through the API one request at a time, beside the same statement on PostgreSQL
 *   directly in the same run (target: p95 < 20 ms);
 * - an e-learning package of 50 MB with 2,000 files uploaded, unpacked and stored (the whole POST), beside the
 *   same bytes saved as one DOWNLOAD (target: < 10 s);
 * - one 100 KB file of that package served by the e-learning origin at 20 connections for 10 s (autocannon),
 *   beside the same listener's bare 404 and beside a bare Node HTTP server (a process of its own) sending the
 *   same 100 KB from memory, which is what the two shared cores allow with the load generator on them
 *   (target: >= 1,000 requests/s).
 *
 *   cd tests && npx tsx --conditions=development bench/dashboard-resources.ts
 *
 * Prints one JSON object and exits 1 when a target is missed. Traffic stays on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import autocannon from 'autocannon';
import pg from 'pg';
import yazl from 'yazl';
import { DASHBOARD_RESOURCE_PATHS as PATHS, type DashboardItem } from '@portal/contract';
import { poolConfigFromUrl } from '@portal/db';
import { visibleItemsSql } from '../../api/src/features/dashboard-resources/sql';
import { runAlone, signIn, type BenchSession } from './stack';
import { keepAliveClient, percentile, timeAlternately } from './timing';
import type { ThrowawayStack } from '../support/throwaway-stack';

const TIMES = Number(process.env.BENCH_RESOURCES_TIMES ?? 300);
export const RESOURCE_TARGETS = { itemsP95Ms: 20, packageSeconds: 10, fileRequestsPerSecond: 1000 };
const ITEMS = 1000;
const ROLES = 50;
const PACKAGE_FILES = 2000;
const PACKAGE_BYTES = 50 * 1024 * 1024;
const SERVED_BYTES = 100 * 1024;

/** 1,000 link items and 50 portal roles, all held by the demo account `username`; each item tied to three. */
async function seedItems(pool: pg.Pool, username: string): Promise<number> {
  const roles = await pool.query<{ id: number }>(
    `INSERT INTO "PortalRole" ("description", "permissions")
     SELECT 'Bench role ' || g, '{USER}' FROM generate_series(1, $1::int) g RETURNING "id"`,
    [ROLES],
  );
  const ids = roles.rows.map((r) => r.id);
  const user = await pool.query<{ id: number }>(`SELECT "id" FROM "PortalUser" WHERE "username" = $1`, [username]);
  await pool.query(
    `INSERT INTO "PortalUserRole" ("portalUserId", "portalRoleId") SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
    [user.rows[0]!.id, ids],
  );
  const category = await pool.query<{ id: number }>(`SELECT "id" FROM "ResourceCategory" WHERE "name" = 'Links'`);
  const items = await pool.query<{ id: number }>(
    `INSERT INTO "DashboardItem" ("kind", "title", "description", "categoryId", "sort", "url", "updatedAt")
     SELECT 'LINK', 'Bench item ' || g, 'A resource of the bench, with a description of some length.', $1, g,
            'https://www.example.org/' || g, now()
     FROM generate_series(1, $2::int) g RETURNING "id"`,
    [category.rows[0]!.id, ITEMS],
  );
  await pool.query(
    `INSERT INTO "DashboardItemPortalRole" ("itemId", "portalRoleId")
     SELECT i, ($2::int[])[1 + ((i * 7 + k * 13) % $3::int)] FROM unnest($1::int[]) i, generate_series(0, 2) k
     ON CONFLICT DO NOTHING`,
    [items.rows.map((r) => r.id), ids, ROLES],
  );
  await pool.query('VACUUM ANALYZE');
  return user.rows[0]!.id;
}

/** A 50 MB package of 2,000 files of random bytes (incompressible, as media are): story.html and one 100 KB file. */
function buildPackage(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('<!doctype html><title>Bench course</title>'), 'story.html');
  zip.addBuffer(crypto.randomBytes(SERVED_BYTES), 'media/served.bin', { compress: false });
  const each = Math.floor((PACKAGE_BYTES - SERVED_BYTES) / (PACKAGE_FILES - 2));
  for (let i = 0; i < PACKAGE_FILES - 2; i++) {
    zip.addBuffer(crypto.randomBytes(each), `media/${i}.bin`, { compress: false });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** POSTs an item with `file` as multipart; @returns the saved item and the seconds the call took. */
async function upload(
  base: string,
  admin: BenchSession,
  item: Record<string, unknown>,
  file: Buffer,
  name: string,
): Promise<{ item: DashboardItem; seconds: number }> {
  const form = new FormData();
  form.append('item', JSON.stringify(item));
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const started = performance.now();
  const res = await fetch(`${base}${PATHS.items}`, { method: 'POST', headers: admin.headers, body: form });
  if (!res.ok) throw new Error(`upload of ${name} answered ${res.status}: ${await res.text()}`);
  return { item: (await res.json()) as DashboardItem, seconds: (performance.now() - started) / 1000 };
}

/**
 * Requests/s of a bare Node HTTP server, in a process of its own, answering every request with `bytes` random
 * bytes held in memory, at 20 connections for 5 s: the ceiling of this machine for serving such a file.
 */
async function bareServerRate(bytes: number): Promise<number> {
  const script = `const b=require('crypto').randomBytes(${bytes});const s=require('http').createServer((q,r)=>r.end(b));
s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const load = await autocannon({ url: `http://127.0.0.1:${line.toString().trim()}/`, connections: 20, duration: 5 });
    return load.requests.average;
  } finally {
    child.kill();
  }
}

/** The three figures of issue 23 Speed, each with its baseline. */
export async function measureResources(stack: ThrowawayStack) {
  const base = stack.urls.portal;
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  try {
    const userId = await seedItems(pool, 'user');
    const user = await signIn(base, 'user');
    const admin = await signIn(base, 'admin');

    // 1. The dashboard's items, one request at a time, beside the same statement on PostgreSQL.
    const client = keepAliveClient(base, user.headers);
    const sql = visibleItemsSql({ userId }, false);
    let seen = 0;
    const [api, direct] = await timeAlternately(
      async () => {
        seen = (JSON.parse((await client.get(PATHS.dashboard)).toString()) as { items: unknown[] }).items.length;
      },
      async () => void (await pool.query(sql.text, sql.values)),
      TIMES,
    );
    client.close();

    // 2. The package: uploaded, unpacked and stored, beside the same bytes stored as one download.
    const categories = await pool.query<{ id: number; name: string }>(
      `SELECT "id", "name" FROM "ResourceCategory" WHERE "headless"`,
    );
    const cat = (name: string) => categories.rows.find((c) => c.name === name)!.id;
    const roles = await pool.query<{ id: number }>(
      `SELECT "id" FROM "PortalRole" WHERE "description" = 'Network User'`,
    );
    const common = { title: 'Bench course', portalRoleIds: [roles.rows[0]!.id] };
    // Two packages of their own random bytes, so nothing of the download is reused by the package.
    const [same, zip] = [await buildPackage(), await buildPackage()];
    const asDownload = await upload(
      base,
      admin,
      { ...common, kind: 'DOWNLOAD', categoryId: cat('Downloads') },
      same,
      'b.zip',
    );
    const course = await upload(
      base,
      admin,
      { ...common, kind: 'ELEARNING', categoryId: cat('eLearnings') },
      zip,
      'c.zip',
    );

    // 3. One 100 KB file of it from the e-learning origin at 20 connections, beside the listener's bare 404.
    const served = course.item.openUrl
      .replace('story.html', 'media/served.bin')
      .replace('//localhost:', '//127.0.0.1:');
    const floorUrl = `${new URL(served).origin}/none`;
    const check = await fetch(served);
    if (!check.ok || (await check.arrayBuffer()).byteLength !== SERVED_BYTES)
      throw new Error(`${served}: ${check.status}`);
    const load = await autocannon({ url: served, connections: 20, duration: 10 });
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`load: ${load.non2xx} non-2xx, ${load.errors} errors`);
    const floor = await autocannon({ url: floorUrl, connections: 20, duration: 5 });
    const bare = await bareServerRate(SERVED_BYTES);

    return {
      itemsSeen: seen,
      itemsApiP50Ms: percentile(api, 50),
      itemsApiP95Ms: percentile(api, 95),
      itemsSqlP50Ms: percentile(direct, 50),
      itemsSqlP95Ms: percentile(direct, 95),
      packageSeconds: course.seconds,
      packageFiles: PACKAGE_FILES,
      packageMb: Math.round(zip.length / 1024 / 102.4) / 10,
      sameBytesAsDownloadSeconds: asDownload.seconds,
      fileRequestsPerSecond: load.requests.average,
      fileP99Ms: load.latency.p99,
      listener404RequestsPerSecond: floor.requests.average,
      bareNodeSameBytesRequestsPerSecond: bare,
    };
  } finally {
    await pool.end();
  }
}

export type ResourceFigures = Awaited<ReturnType<typeof measureResources>>;

/** The targets issue 23 names that `r` missed, as readable lines. */
export function resourcesMissed(r: ResourceFigures): string[] {
  const missed: string[] = [];
  if (!(r.itemsApiP95Ms < RESOURCE_TARGETS.itemsP95Ms))
    missed.push(`dashboard items p95 ${r.itemsApiP95Ms.toFixed(1)} ms`);
  if (!(r.packageSeconds < RESOURCE_TARGETS.packageSeconds)) missed.push(`package ${r.packageSeconds.toFixed(1)} s`);
  if (!(r.fileRequestsPerSecond >= RESOURCE_TARGETS.fileRequestsPerSecond))
    missed.push(`file ${Math.round(r.fileRequestsPerSecond)} req/s`);
  return missed;
}

const round = (v: number) => Math.round(v * 100) / 100;

runAlone(import.meta.url, 'bench-resources', measureResources, (r) => ({
  targets: RESOURCE_TARGETS,
  results: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)])),
  lines: [
    `dashboard items p95 ${round(r.itemsApiP95Ms)} ms (target < ${RESOURCE_TARGETS.itemsP95Ms} ms; the SQL alone p95 ${round(r.itemsSqlP95Ms)} ms)`,
    `e-learning package ${r.packageMb} MB / ${r.packageFiles} files ${round(r.packageSeconds)} s (target < ${RESOURCE_TARGETS.packageSeconds} s; the same bytes as one download ${round(r.sameBytesAsDownloadSeconds)} s)`,
    `100 KB package file at 20 connections ${Math.round(r.fileRequestsPerSecond)} req/s (target >= ${RESOURCE_TARGETS.fileRequestsPerSecond}; the listener's bare 404 ${Math.round(r.listener404RequestsPerSecond)} req/s; a bare Node server sending the same bytes from memory ${Math.round(r.bareNodeSameBytesRequestsPerSecond)} req/s)`,
  ],
  missed: resourcesMissed(r),
}));
