/**
 * `npm run bench`: measures the request path on the local stack (seeded with 2,000 users) and checks it
 * against targets. Reports, in milliseconds:
 * - filing an access-change request (API validation + projection row + workflow start), sequentially;
 * - a reviewer's save (Temporal update round trip: validator, activity writes, projection read back);
 * - the User Requests queue page under load (autocannon, 10 connections, 10 s): latency and requests/s.
 * Writes tests/artifacts/bench.json and exits 1 when a target is missed. Traffic stays on 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startStack } from '@portal/scripts';
import { DEMO_ACCOUNTS } from '@portal/db/seed';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 15);
const TARGETS = { fileP95Ms: 500, reviewP95Ms: 500, queueP99Ms: 250, queueMinRps: 100 };

interface Session {
  cookie: string;
  xsrf: string;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: true,
    handleSignals: false,
    log: () => {},
  });
  const base = stack.urls.portal;
  try {
    const signIn = async (username: string): Promise<Session> => {
      const password = DEMO_ACCOUNTS.find((a) => a.username === username)!.password;
      const res = await fetch(`${base}/rest/token/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (!res.ok) throw new Error(`sign-in as ${username} answered ${res.status}`);
      const cookie = res.headers
        .getSetCookie()
        .find((c) => c.startsWith('pg_session='))!
        .split(';')[0]!;
      return { cookie, xsrf: ((await res.json()) as { xsrfToken: string }).xsrfToken };
    };
    const call = async (s: Session, method: string, url: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { cookie: s.cookie, 'x-xsrf-token': s.xsrf, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return { ms, json: (await res.json()) as Record<string, unknown> };
    };

    const user = await signIn('user');
    const reviewer = await signIn('reviewer');
    const profile = (await call(user, 'GET', '/rest/secure/user_profile')).json as { portalUserId: number };
    const roles = (await (await fetch(`${base}/rest/public/user_registration/study_roles/`)).json()) as Array<{
      roleName: string;
      systemAccessIds: number[];
    }>;
    const studies = (await (await fetch(`${base}/rest/public/studies`)).json()) as Array<{ study: string }>;
    const role = roles.find((r) => r.roleName === 'Data Manager')!;
    const block = {
      roleName: role.roleName,
      siteCodes: [],
      laoIds: [],
      studyNames: [studies[0]!.study],
      systemAccessIds: role.systemAccessIds,
    };

    const fileMs: number[] = [];
    const reviewMs: number[] = [];
    for (let i = 0; i < CYCLES; i++) {
      // NEW then REMOVAL of the same study role, each filed, moved to In Progress and resolved.
      for (const requestType of ['NEW', 'REMOVAL'] as const) {
        const filed = await call(user, 'POST', '/rest/secure/user_access_mod_request', {
          portalUserId: profile.portalUserId,
          requestType,
          accessControls: [block],
          requesterComments: `bench ${i}`,
        });
        fileMs.push(filed.ms);
        const id = filed.json.id as number;
        for (const [versionno, requestStatus] of [
          [0, 'IN_PROGRESS'],
          [1, 'APPROVED'],
        ] as const) {
          const saved = await call(reviewer, 'PUT', '/rest/secure/user_management/review_access_change_request', {
            userAccessModificationRequest: {
              id,
              versionno,
              requestStatus,
              reviewerComments: 'bench',
              sysaidTicket: '',
            },
          });
          reviewMs.push(saved.ms);
        }
      }
    }

    const load = await autocannon({
      url: `${base}/rest/secure/user_management/user_requests/all?page=1&size=25&sort=dateSubmitted,desc`,
      connections: 10,
      duration: 10,
      headers: { cookie: reviewer.cookie, 'x-xsrf-token': reviewer.xsrf },
    });
    if (load.non2xx > 0 || load.errors > 0)
      throw new Error(`queue load: ${load.non2xx} non-2xx, ${load.errors} errors`);

    const results = {
      requestsFiled: fileMs.length,
      fileP50Ms: percentile(fileMs, 50),
      fileP95Ms: percentile(fileMs, 95),
      reviewsSaved: reviewMs.length,
      reviewP50Ms: percentile(reviewMs, 50),
      reviewP95Ms: percentile(reviewMs, 95),
      queueP50Ms: load.latency.p50,
      queueP99Ms: load.latency.p99,
      queueRps: load.requests.average,
    };
    const missed = [
      results.fileP95Ms > TARGETS.fileP95Ms && `file p95 ${results.fileP95Ms.toFixed(0)} ms > ${TARGETS.fileP95Ms}`,
      results.reviewP95Ms > TARGETS.reviewP95Ms &&
        `review p95 ${results.reviewP95Ms.toFixed(0)} ms > ${TARGETS.reviewP95Ms}`,
      results.queueP99Ms > TARGETS.queueP99Ms && `queue p99 ${results.queueP99Ms} ms > ${TARGETS.queueP99Ms}`,
      results.queueRps < TARGETS.queueMinRps && `queue ${results.queueRps} req/s < ${TARGETS.queueMinRps}`,
    ].filter(Boolean);
    const out = path.join(import.meta.dirname, '..', 'artifacts', 'bench.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), targets: TARGETS, results, missed }, null, 2));
    console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(v * 10) / 10])));
    console.log(missed.length ? `targets missed: ${missed.join('; ')}` : 'all targets met');
    process.exitCode = missed.length ? 1 : 0;
  } finally {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
