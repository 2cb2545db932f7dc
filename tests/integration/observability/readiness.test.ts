/**
 * /livez and /readyz (issue 24) on the real stack, with slapd and Temporal behind fault proxies
 * (tests/support/fault-proxy.ts): ready with every dependency up and a worker polling; slapd stopped or frozen,
 * or Temporal stopped, fails readiness naming the dependency (a frozen one within the check's deadline, never a
 * hung probe), and healed it is ready again; a task queue no worker polls is named. Overloaded, the API answers
 * 503 with Retry-After while /livez still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, proxyFor, startFaultProxy } from '../../support/fault-proxy';
import { stackEnv } from '../fixtures';
import { type TestApi, startApi, startWorker } from '../harness';
import { uniqueQueue } from '../lifecycle/support';

const TIMEOUT_MS = 1_000;
const queue = uniqueQueue('readiness');
let ldap: FaultProxy;
let temporal: FaultProxy;
let direct: TestApi;
let probed: TestApi;
let stopWorker: () => Promise<void>;

interface ReadyBody {
  status: string;
  failed: string[];
  checks: Record<string, string>;
}

beforeAll(async () => {
  const viaLdap = await proxyFor(stackEnv().LDAP_URL!);
  ldap = viaLdap.proxy;
  const [host = '127.0.0.1', port = '7233'] = stackEnv().TEMPORAL_ADDRESS!.split(':');
  temporal = await startFaultProxy({ host, port: Number(port) });
  direct = await startApi({ TEMPORAL_TASK_QUEUE: queue });
  stopWorker = await startWorker(direct, queue);
  probed = await startApi({
    TEMPORAL_TASK_QUEUE: queue,
    LDAP_URL: viaLdap.url,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}`,
    READY_CHECK_TIMEOUT_MS: String(TIMEOUT_MS),
  });
});

afterAll(async () => {
  ldap?.heal();
  temporal?.heal();
  await probed?.close();
  await stopWorker?.();
  await direct?.close();
  await ldap?.close();
  await temporal?.close();
});

async function readyz(api: TestApi = probed): Promise<{ statusCode: number; body: ReadyBody; ms: number }> {
  const started = Date.now();
  const res = await api.app.inject({ method: 'GET', url: '/readyz' });
  return { statusCode: res.statusCode, body: res.json() as ReadyBody, ms: Date.now() - started };
}

/** Polls /readyz (up to 30 s) until it answers `statusCode`; returns that answer. */
async function untilReadyz(statusCode: number, api: TestApi = probed) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await readyz(api);
    if (answer.statusCode === statusCode) return answer;
    if (Date.now() > deadline) throw new Error(`/readyz still ${answer.statusCode}: ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('readiness', () => {
  it('is ready with every dependency up and a worker polling; /livez answers', async () => {
    const { body } = await untilReadyz(200);
    expect(body).toEqual({
      status: 'ready',
      failed: [],
      checks: { postgres: 'ok', temporal: 'ok', ldap: 'ok', worker: 'ok' },
    });
    const live = await probed.app.inject({ method: 'GET', url: '/livez' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    expect(live.headers['cache-control']).toBe('no-store');
  });

  it('fails naming ldap while slapd is stopped, and is ready again once it is back', async () => {
    ldap.refuse();
    const { body } = await untilReadyz(503);
    expect(body.status).toBe('not ready');
    expect(body.failed).toEqual(['ldap']);
    expect(body.checks.ldap).toMatch(/^unreachable: /);
    ldap.heal();
    await untilReadyz(200);
  });

  it('fails naming ldap within its deadline while slapd is frozen, and is ready again once it resumes', async () => {
    ldap.hang();
    const { body, ms } = await untilReadyz(503);
    expect(body.failed).toEqual(['ldap']);
    expect(body.checks.ldap).toBe(`unreachable: no answer within ${TIMEOUT_MS} ms`);
    // The check gave up at its deadline, not before: its own message names it, and the call waited it out.
    // No upper bound on wall-clock time here: a busy machine may answer later (speed is npm run bench's).
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    ldap.heal();
    await untilReadyz(200);
  });

  it('fails naming temporal (and the worker check it carries) while Temporal is stopped', async () => {
    temporal.refuse();
    const { body } = await untilReadyz(503);
    expect(body.failed).toEqual(['temporal', 'worker']);
    expect(body.checks.worker).toBe('unknown: Temporal unreachable');
    temporal.heal();
    await untilReadyz(200);
  });

  it('names a task queue no worker polls', async () => {
    const lonely = await startApi({ TEMPORAL_TASK_QUEUE: uniqueQueue('readiness-nobody') });
    try {
      const { body } = await untilReadyz(503, lonely);
      expect(body.failed).toEqual(['worker']);
      expect(body.checks.worker).toBe(`no worker polls task queue ${lonely.cfg.TEMPORAL_TASK_QUEUE}`);
    } finally {
      await lonely.close();
    }
  });
});

describe('overload', () => {
  it('answers 503 with Retry-After once the event loop lags, while /livez still answers', async () => {
    const busy = await startApi({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '20', OVERLOAD_RETRY_AFTER_SECONDS: '7' });
    try {
      await busy.app.ready();
      const deadline = Date.now() + 20_000;
      let res = await busy.app.inject({ method: 'GET', url: '/rest/public/health' });
      while (res.statusCode !== 503 && Date.now() < deadline) {
        // Hold the event loop for 200 ms at a time, as a process with more work than it can do would.
        const until = Date.now() + 200;
        while (Date.now() < until);
        await new Promise((r) => setImmediate(r));
        res = await busy.app.inject({ method: 'GET', url: '/rest/public/health' });
      }
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toEqual({ message: 'The portal is busy. Please try again in a few seconds.' });
      expect((await busy.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
      expect(busy.app.metrics.overloadRefusals.get()).toBeTruthy();
    } finally {
      await busy.close();
    }
  });
});
