/**
 * The User Requests queue page through the API against the same statements on PostgreSQL directly
 * (issue 14 "Read paths at the speed of SQL"): both run one request at a time in the same process and run,
 * in turn, and the ratio of their median times is the API's overhead (target at most 1.5).
 */
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import { userRequestQueueSql } from '../../api/src/features/requests/queue-sql';
import { keepAliveClient, median, timeAlternately } from './timing';

/** The page the bench reads: the reviewer's default queue view (000 §7 user_requests/all). */
export const QUEUE_QUERY = { page: 1, size: 25, sort: 'dateSubmitted,desc' } as const;
export const QUEUE_URL = `/rest/secure/user_management/user_requests/all?page=${QUEUE_QUERY.page}&size=${QUEUE_QUERY.size}&sort=${QUEUE_QUERY.sort}`;

/**
 * Untimed runs of each side before timing. The API reaches its steady state only after a few thousand calls
 * (V8 optimises its hot path in tiers: measured here, the page took 1.6 ms over its first thousand calls and
 * 0.45-0.65 ms from the eighth thousand on), and a server in use has long been past them.
 */
const WARM_UP = 5000;

/**
 * Runs the queue page `times` times through the API (`base` + QUEUE_URL with the reviewer's cookie and XSRF
 * header, over one kept-alive connection) and, in turn with it, the page's two statements (rows and count,
 * side by side as the API runs them) on PostgreSQL with a pg pool of its own, as plain statements (parsed and
 * planned on every call: the ratio's baseline). Then, printed only, the same statements prepared (planned
 * once per connection, as the API runs them) and the HTTP exchange alone (a public list answered from memory),
 * so the API's time reads as that floor plus the page's own work.
 * @returns the medians (ms) and the ratio of the API's to the plain statements'.
 * @throws Error when the API answers anything but 200.
 */
export async function compareQueueWithSql(opts: {
  base: string;
  headers: Record<string, string>;
  databaseUrl: string;
  times: number;
}): Promise<{ apiP50Ms: number; sqlP50Ms: number; ratio: number; sqlPreparedP50Ms: number; httpFloorP50Ms: number }> {
  const client = keepAliveClient(opts.base, opts.headers);
  const pool = new pg.Pool({ ...poolConfigFromUrl(opts.databaseUrl), max: 2 });
  try {
    const [field, dir] = QUEUE_QUERY.sort.split(',') as [string, 'asc' | 'desc'];
    const { rows, count } = userRequestQueueSql('all', { ...QUEUE_QUERY }, field, dir);
    // The steady state: without it the requests just filed wait for autovacuum, and an ANALYZE arriving in
    // the middle of the timing changes the plans of one side and not yet the other.
    await pool.query('VACUUM ANALYZE');
    const [api, sql] = await timeAlternately(
      async () => void (await client.get(QUEUE_URL)),
      async () => void (await Promise.all([pool.query(rows.text, rows.values), pool.query(count.text, count.values)])),
      opts.times,
      WARM_UP,
    );
    const [prepared, floor] = await timeAlternately(
      async () =>
        void (await Promise.all([
          pool.query({ name: 'bench_rows', text: rows.text, values: rows.values }),
          pool.query({ name: 'bench_count', text: count.text, values: count.values }),
        ])),
      async () => void (await client.get('/rest/public/sites')),
      opts.times,
    );
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
    client.close();
    await pool.end();
  }
}
