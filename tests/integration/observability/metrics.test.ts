/**
 * Metrics (issue 24) on the real stack: the API's /metrics behind its token (and on its own listener), the
 * worker process's /metrics on WORKER_METRICS_PORT with the Temporal SDK's runtime series; both scraped and parsed:
 * the families present, and the counters and gauges moving after a filing and its review, a failed sign-in and a refusal by
 * the forgot-password limit.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMetricsServer } from '@portal/api';
import { parsePrometheus, type Scrape } from '../../support/prometheus';
import { createTestUser, uniqueClientAddress } from '../auth-helpers';
import { demoRequestParts } from '../fixtures';
import { type TestApi, caller, signIn, signInCall, startApi } from '../harness';
import { uniqueQueue } from '../lifecycle/support';
import { killWorkerProcess, startWorkerProcess } from '../worker-process';

const TOKEN = 'metrics-token-for-the-tests';
const queue = uniqueQueue('metrics');
let api: TestApi;
let worker: ChildProcess;
let workerMetricsUrl: string;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: queue, METRICS_TOKEN: TOKEN, RATE_LIMIT_FORGOT_PASSWORD_MAX: '1' });
  const port = await freePort();
  worker = await startWorkerProcess(queue, { WORKER_METRICS_PORT: String(port) });
  workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
});

afterAll(async () => {
  if (worker) await killWorkerProcess(worker);
  await api?.close();
});

async function scrapeApi(): Promise<Scrape> {
  const res = await api.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return parsePrometheus(res.body);
}

async function scrapeWorker(): Promise<Scrape> {
  const res = await fetch(workerMetricsUrl);
  expect(res.status).toBe(200);
  return parsePrometheus(await res.text());
}

/** Polls `read` (up to 20 s) until `ok` holds for its answer; returns that answer. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} within 20 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const FILING = { method: 'POST', route: '/rest/secure/user_access_mod_request', status: '200' };
const OPEN = { kind: 'access_change', status: 'IN_PROGRESS' };

describe('the API /metrics', () => {
  it('is not on the public listener without configuration, and wants its token there', async () => {
    const open = await startApi({ TEMPORAL_TASK_QUEUE: queue });
    try {
      // Nothing but the web app's page (the single-page fallback), never the metrics.
      const res = await open.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.body).not.toContain('portal_http_request_duration_seconds');
    } finally {
      await open.close();
    }
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', TOKEN]) {
      const res = await api.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('portal_');
    }
  });

  it('on its own listener (METRICS_PORT) answers without a token, beside the probes', async () => {
    const server = await buildMetricsServer(api.deps, api.app.metrics);
    try {
      const res = await server.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(parsePrometheus(res.body).families).toContain('portal_http_request_duration_seconds');
      expect((await server.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('names every family, and its counters and gauges move after a filing and its review, a failed sign-in and a limit refusal', async () => {
    const before = await scrapeApi();
    for (const family of [
      'portal_http_request_duration_seconds',
      'portal_open_requests',
      'portal_outbox_backlog',
      'portal_outbox_oldest_age_seconds',
      'portal_reconciler_backlog',
      'portal_reconciler_lag_seconds',
      'portal_sign_in_failures_total',
      'portal_rate_limit_refusals_total',
      'portal_overload_refusals_total',
      'process_cpu_seconds_total',
    ]) {
      expect(before.families, family).toContain(family);
    }
    expect(before.value('portal_metrics_scrape_errors_total', { source: 'postgres' }) ?? 0).toBe(0);
    expect(before.value('portal_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(before.value('portal_reconciler_lag_seconds', { kind: 'access_change' })).toBeGreaterThanOrEqual(0);

    const subject = await createTestUser(api, 'metrics');
    const session = await signIn(api.app, subject.username, subject.password);
    const { block } = await demoRequestParts(api.prisma);
    const filed = await caller(api.app)(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: subject.user.id,
      email: subject.email,
      requestType: 'NEW',
      requestStatus: 'NEW',
      accessControls: [block],
    });
    expect(filed.statusCode, filed.body).toBe(200);
    // A reviewer's save runs the worker's activities (the projection), which the worker's metrics count.
    const reviewer = await signIn(api.app, 'reviewer');
    const saved = await caller(api.app)(reviewer, 'PUT', '/rest/secure/user_management/review_access_change_request', {
      userAccessModificationRequest: {
        id: filed.json().id,
        versionno: 0,
        requestStatus: 'IN_PROGRESS',
        reviewerComments: '',
        sysaidTicket: '',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const failed = await signInCall(api.app, subject.username, 'Not-The-Password-1!');
    const address = uniqueClientAddress();
    const forgot = () =>
      api.app.inject({
        method: 'POST',
        url: '/rest/public/forgot_password',
        remoteAddress: address,
        payload: { emailAddress: 'nobody@example.org' },
      });
    await forgot();
    expect((await forgot()).statusCode).toBe(429);

    const count = (s: Scrape) => s.value('portal_http_request_duration_seconds_count', FILING) ?? 0;
    const openNew = (s: Scrape) => s.value('portal_open_requests', OPEN) ?? 0;
    const after = await until(
      scrapeApi,
      (s) => openNew(s) === openNew(before) + 1,
      'the request counted open, in progress',
    );
    expect(count(after)).toBe(count(before) + 1);
    const failures = (s: Scrape) =>
      s.value('portal_sign_in_failures_total', { status: String(failed.statusCode) }) ?? 0;
    expect(failures(after)).toBe(failures(before) + 1);
    const refusals = (s: Scrape) =>
      s.value('portal_rate_limit_refusals_total', { route: '/rest/public/forgot_password' }) ?? 0;
    expect(refusals(after)).toBe(refusals(before) + 1);
  });
});

describe('the worker /metrics (WORKER_METRICS_PORT)', () => {
  it("serves the Temporal SDK's runtime metrics and its activities' outcomes, which move after a review", async () => {
    const completed = (s: Scrape) =>
      s.samples('portal_activity_executions_total').filter((x) => x.labels.outcome === 'completed').length;
    const scrape = await until(scrapeWorker, (s) => completed(s) > 0, 'an activity of the review counted');
    expect(scrape.families).toContain('portal_activity_duration_seconds');
    expect([...scrape.families].filter((f) => f.startsWith('temporal_')).length).toBeGreaterThan(5);
    expect(scrape.families).toContain('temporal_num_pollers');
  });
});

describe('the Grafana dashboard (deploy/grafana-dashboard.json)', () => {
  it('charts only metric families the API and the worker export', async () => {
    const file = path.join(import.meta.dirname, '..', '..', '..', 'deploy', 'grafana-dashboard.json');
    const exprs = fs.readFileSync(file, 'utf8').match(/"expr": "[^"\n]*(?:\\.[^"\n]*)*"/g) ?? [];
    const used = new Set(exprs.flatMap((e) => e.match(/\b(?:portal|temporal|process|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(10);
    const [apiScrape, workerScrape] = [await scrapeApi(), await scrapeWorker()];
    const exported = new Set([...apiScrape.families, ...workerScrape.families]);
    // The SDK exports a failure counter only once a failure happened; a healthy run has none.
    const onlyAfterFailures = new Set(['temporal_request_failure_total']);
    const missing = [...used].filter(
      (name) => !onlyAfterFailures.has(name) && !exported.has(name.replace(/_(bucket|count|sum)$/, '')),
    );
    expect(missing).toEqual([]);
  });
});
