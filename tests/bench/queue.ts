/**
 * The User Requests queue page through the API against the same statements on PostgreSQL directly
 * (issue 14 "Read paths at the speed of SQL"): both run one request at a time in the same process and run,
 * and the ratio of their median times is the API's overhead (target at most 1.5).
 */
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import { userRequestQueueSql } from '../../api/src/features/requests/queue-sql';

/** The page the bench reads: the reviewer's default queue view (000 §7 user_requests/all). */
export const QUEUE_QUERY = { page: 1, size: 25, sort: 'dateSubmitted,desc' } as const;
export const QUEUE_URL = `/rest/secure/user_management/user_requests/all?page=${QUEUE_QUERY.page}&size=${QUEUE_QUERY.size}&sort=${QUEUE_QUERY.sort}`;

/** Median of `values` (ms). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
};

/** Times `run` `times` times, one after another, after `warmUp` untimed runs. */
async function timeEach(run: () => Promise<void>, times: number, warmUp = 20): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return ms;
}

/**
 * Runs the queue page `times` times through the API (`base` + QUEUE_URL with the reviewer's cookie and
 * XSRF header) and the page's two statements (rows and count, side by side as the API runs them) `times`
 * times on PostgreSQL with a pg pool of its own, as plain statements (parsed and planned on every call: the
 * ratio's baseline) and as prepared statements (planned once per connection, as the API runs them).
 * @returns the medians (ms) and the ratio of the API's to the plain statements'.
 * @throws Error when the API answers anything but 200.
 */
export async function compareQueueWithSql(opts: {
  base: string;
  headers: Record<string, string>;
  databaseUrl: string;
  times: number;
}): Promise<{ apiP50Ms: number; sqlP50Ms: number; ratio: number; sqlPreparedP50Ms: number; httpFloorP50Ms: number }> {
  const api = await timeEach(async () => {
    const res = await fetch(`${opts.base}${QUEUE_URL}`, { headers: opts.headers });
    if (res.status !== 200) throw new Error(`queue page answered ${res.status}`);
    await res.arrayBuffer();
  }, opts.times);
  // The HTTP exchange alone: a public list the API answers from memory (no session, no SQL). Printed only,
  // so the queue's time can be read as this floor plus the page's own work.
  const floor = await timeEach(async () => {
    const res = await fetch(`${opts.base}/rest/public/sites`);
    if (res.status !== 200) throw new Error(`sites answered ${res.status}`);
    await res.arrayBuffer();
  }, opts.times);

  const pool = new pg.Pool({ ...poolConfigFromUrl(opts.databaseUrl), max: 2 });
  try {
    const [field, dir] = QUEUE_QUERY.sort.split(',') as [string, 'asc' | 'desc'];
    const { rows, count } = userRequestQueueSql('all', { ...QUEUE_QUERY }, field, dir);
    const sql = await timeEach(async () => {
      await Promise.all([pool.query(rows.text, rows.values), pool.query(count.text, count.values)]);
    }, opts.times);
    // The API runs them as prepared statements (api/src/shared/sql.ts); printed so the ratio can be read
    // against both: the target stays on the plain statements, the prepared ones show PostgreSQL's floor.
    const prepared = await timeEach(async () => {
      await Promise.all([
        pool.query({ name: 'bench_rows', text: rows.text, values: rows.values }),
        pool.query({ name: 'bench_count', text: count.text, values: count.values }),
      ]);
    }, opts.times);
    const apiP50Ms = median(api);
    const sqlP50Ms = median(sql);
    return {
      apiP50Ms,
      sqlP50Ms,
      ratio: apiP50Ms / sqlP50Ms,
      sqlPreparedP50Ms: median(prepared),
      httpFloorP50Ms: median(floor),
    };
  } finally {
    await pool.end();
  }
}
