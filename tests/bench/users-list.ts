/**
 * The Users list at scale (issue 11 Speed; a benchmark script, not a timed test): a stack seeded with
 * BENCH_USERS generated users (default 100,000), then for two views, page 1 sorted by last name and a
 * wildcard filter, the p50 and p95 through the API one request at a time beside the same two statements
 * (list-sql.ts: rows and count, side by side as the API runs them) on PostgreSQL directly in the same run,
 * the ratio of the p50s, and the first view under load (autocannon, 10 connections, 10 s; printed only, the
 * load generator shares the machine's cores). Targets: p95 under 50 ms through the API, ratio under 1.5.
 *
 *   cd tests && npx tsx --conditions=development bench/users-list.ts
 *
 * Prints one JSON object and exits 1 when a target is missed. Traffic stays on 127.0.0.1.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import { usersListSql } from '../../api/src/features/users/list-sql';
import { signIn, startBenchStack } from './stack';
import { keepAliveClient, percentile, timeAlternately } from './timing';

const USERS = process.env.BENCH_USERS ?? '100000';
const TIMES = Number(process.env.BENCH_USERS_LIST_TIMES ?? 300);
const TARGETS = { apiP95Ms: 50, apiToSqlP50Ratio: 1.5 };

/** The two views of issue 11: the default page, and a wildcard that matches inside last names and emails. */
const VIEWS = [
  { name: 'page1ByLastName', query: { page: 1, size: 25 } },
  { name: 'wildcardFilter', query: { page: 1, size: 25, filter: 'son' } },
] as const;

const urlOf = (q: { page: number; size: number; filter?: string }) =>
  `/rest/secure/user_management/users?page=${q.page}&size=${q.size}&sort=person.lastName,asc${q.filter ? `&filter=${q.filter}&filterType=OR` : ''}`;

async function main(): Promise<void> {
  const stack = await startBenchStack('bench-users', { ...process.env, SEED_GENERATED_USERS: USERS });
  const base = stack.urls.portal;
  const pool = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  try {
    const { headers } = await signIn(base, 'readonly');
    // Right after the bulk load autovacuum has not yet set the visibility map, so counts read the heap
    // until it has; a vacuum now measures the steady state (and the ANALYZE gives the planner statistics).
    await pool.query('VACUUM ANALYZE');
    // One kept-alive connection, as the queue bench: the API's time, not the client's (timing.ts).
    const client = keepAliveClient(base, headers);

    const results: Record<string, number> = {};
    const missed: string[] = [];
    for (const view of VIEWS) {
      const { rows, count } = usersListSql(false, view.query, 'person.lastName', 'asc');
      // Interleaved, so that the API and SQL runs see the same machine (other work, autovacuum).
      const [api, sql] = await timeAlternately(
        async () => void (await client.get(urlOf(view.query))),
        async () => {
          await Promise.all([pool.query(rows.text, rows.values), pool.query(count.text, count.values)]);
        },
        TIMES,
      );
      const total = ((await pool.query(count.text, count.values)).rows[0] as { total: number }).total;
      const r = {
        matching: total,
        apiP50Ms: percentile(api, 50),
        apiP95Ms: percentile(api, 95),
        sqlP50Ms: percentile(sql, 50),
        sqlP95Ms: percentile(sql, 95),
        apiToSqlP50Ratio: percentile(api, 50) / percentile(sql, 50),
      };
      for (const [k, v] of Object.entries(r)) results[`${view.name}.${k}`] = Math.round(v * 100) / 100;
      if (r.apiP95Ms > TARGETS.apiP95Ms) missed.push(`${view.name} p95 ${r.apiP95Ms.toFixed(1)} ms`);
      if (r.apiToSqlP50Ratio > TARGETS.apiToSqlP50Ratio)
        missed.push(`${view.name} ratio ${r.apiToSqlP50Ratio.toFixed(2)}`);
    }

    const load = await autocannon({ url: `${base}${urlOf(VIEWS[0].query)}`, connections: 10, duration: 10, headers });
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`load: ${load.non2xx} non-2xx, ${load.errors} errors`);
    results['underLoad.p50Ms'] = load.latency.p50;
    results['underLoad.p99Ms'] = load.latency.p99;
    results['underLoad.pagesPerSecond'] = load.requests.average;
    client.close();

    console.log(JSON.stringify({ users: Number(USERS), targets: TARGETS, results, missed }, null, 2));
    if (missed.length) process.exitCode = 1;
  } finally {
    await pool.end();
    await stack.close();
  }
}

await main();
