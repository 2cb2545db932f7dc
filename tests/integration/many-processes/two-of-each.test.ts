/**
 * Two API processes and two workers on one PostgreSQL and one Temporal (issue 24), started as
 * `npm run up -- --instances 2` starts them (startStack with `instances: 2`, built JavaScript, supervised),
 * on the test stack's PostgreSQL, Temporal, slapd and mail catcher and a task queue of their own. Every call
 * goes to one process's own port, from a loopback address no other test uses:
 * - both serve the app; a session made on one is used on the other, and its sign-out ends it on both;
 * - the sign-in limit (per address and username) and the forgot-password limit (per address) are counted
 *   over both processes, not per process;
 * - a captcha challenge fetched from one is accepted by the other, and its solution, once used, is refused by
 *   both;
 * - a system configured on one is listed by the other at once (the cached lists are dropped on PostgreSQL's
 *   reference_changed notification);
 * - a request filed on one is reviewed on the other;
 * - a proxy batch survives `kill -9` of either worker (the supervisor restarts it; the other takes over).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, REGISTRATION_MESSAGES } from '@portal/contract';
import { loadApiConfig } from '@portal/api';
import type { PortalUser, PrismaClient } from '@portal/db';
import { proxyBatchWorkflowId } from '@portal/workflows';
import { type Stack, startStack } from '@portal/scripts';
import { createTestUser } from '../auth-helpers';
import { demoRequestParts, stackEnv, testPrisma } from '../fixtures';
import { demoPassword } from '../harness';
import { until } from '../lifecycle/support';
import { BATCH_URL, batchEnded, filingWaits, holdFilingLock, subjectsAt } from '../proxy-batch/support';
import { type Session, loopbackClient, send, signInAt, signInCall } from './client';

const SIGN_IN_MAX = 4;
const FORGOT_MAX = 3;
const queue = `many-processes-${Date.now()}`;

let stack: Stack;
let dataDir: string;
let prisma: PrismaClient;
let temporal: Client;
let connection: Connection;
/** The two API processes' own base URLs. */
let a: string;
let b: string;
/** Every line the stack logged ([stack] ..., [worker] ..., [api-2] ...). */
const lines: string[] = [];

beforeAll(async () => {
  const env = stackEnv();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-many-'));
  fs.chmodSync(dataDir, 0o755);
  stack = await startStack({
    dataDir,
    ports: 'random',
    seed: false,
    apps: true,
    instances: 2,
    handleSignals: false,
    log: (line) => lines.push(line),
    env: {
      ...process.env,
      // The test stack's services: the stack starts none of its own, only the apps.
      DATABASE_URL: env.DATABASE_URL,
      TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
      LDAP_URL: env.LDAP_URL,
      LDAP_ADMIN_PASSWORD: env.LDAP_ADMIN_PASSWORD,
      LDAP_BASE_DN: env.LDAP_BASE_DN,
      LDAP_ADMIN_DN: env.LDAP_ADMIN_DN,
      SMTP_URL: env.SMTP_URL,
      MAIL_UI_URL: env.MAIL_UI_URL,
      // The keys the test stack's data were made with (the provider's stored signing keys, mail links).
      OIDC_KEY_ENCRYPTION_KEY: env.OIDC_KEY_ENCRYPTION_KEY,
      MAIL_LINK_KEY: env.MAIL_LINK_KEY,
      // Seals nothing on the shared database (the seal tests run on copies of their own).
      AUDIT_SEAL_PRIVATE_KEY: '',
      SSO_PROJECT_ID: env.SSO_PROJECT_ID,
      // Only these workers poll this queue; no digest schedule, no reconciling of other tests' rows.
      TEMPORAL_TASK_QUEUE: queue,
      REVIEWER_DIGEST_TO: '',
      RECONCILE_GRACE: '1 day',
      RATE_LIMIT_SIGN_IN_MAX: String(SIGN_IN_MAX),
      RATE_LIMIT_FORGOT_PASSWORD_MAX: String(FORGOT_MAX),
      // A cheap captcha: the test solves it as the widget would.
      CAPTCHA_MAX_COUNTER: '5000',
      SECOND_FACTOR_REQUIRED_PERMISSIONS: '',
      LOG_LEVEL: 'warn',
    },
  });
  [a, b] = stack.urls.portals as [string, string];
  prisma = testPrisma();
  connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS! });
  temporal = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await connection?.close();
  await prisma?.$disconnect();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const directory = () => loadApiConfig({ ...stackEnv(), LOG_LEVEL: 'silent' });

describe('two API processes', () => {
  it('each listen on their own port and serve the app', async () => {
    expect(stack.urls.portals).toHaveLength(2);
    expect(a).not.toBe(b);
    expect(stack.apps!.apis).toHaveLength(2);
    expect(stack.apps!.workers).toHaveLength(2);
    const from = loopbackClient();
    for (const base of [a, b]) {
      expect((await send(base, '/rest/public/health', { from })).status).toBe(200);
      const page = await send(base, '/', { from });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root">');
    }
  });

  it('share sessions: signed in on one, used on the other; signed out on the other, refused on the first', async () => {
    const from = loopbackClient();
    const u = await createTestUser({ prisma, directory: directory() }, 'mpsess');
    const session = await signInAt(a, u.username, u.password, from);
    const onB = await send(b, '/rest/secure/user_profile', { session, from });
    expect(onB.status, onB.body).toBe(200);
    expect((await send(b, '/rest/secure/token/invalidate', { method: 'POST', session, from })).status).toBe(200);
    // Process A may have the session cached: PostgreSQL tells it of the sign-out (session_changed).
    await until(
      async () => (await send(a, '/rest/secure/user_profile', { session, from })).status === 401,
      'the session signed out on B to be refused on A',
      10_000,
    );
  });

  it('count the sign-in limit over both processes, per address and username', async () => {
    const from = loopbackClient();
    const name = `mpprobe${Date.now().toString(36)}`;
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_MAX; i++) {
      statuses.push((await signInCall(i % 2 ? b : a, name, 'Wrong-Password-1!', from)).status);
    }
    expect(statuses).toEqual(Array(SIGN_IN_MAX).fill(401));
    for (const base of [a, b]) {
      const limited = await signInCall(base, name, 'Wrong-Password-1!', from);
      expect(limited.status).toBe(429);
      expect(limited.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    }
  });

  it('count the forgot-password limit over both processes, per address', async () => {
    const from = loopbackClient();
    const forgot = (base: string) =>
      send(base, '/rest/public/forgot_password', {
        method: 'POST',
        body: { emailAddress: 'nobody@example.org' },
        from,
      });
    const statuses: number[] = [];
    for (let i = 0; i < FORGOT_MAX; i++) statuses.push((await forgot(i % 2 ? b : a)).status);
    expect(statuses).toEqual(Array(FORGOT_MAX).fill(200));
    expect((await forgot(b)).status).toBe(429);
    expect((await forgot(a)).status).toBe(429);
  });

  it("accept one process's captcha challenge on the other, and refuse its used solution on both", async () => {
    const from = loopbackClient();
    const challenge = (await send(a, '/rest/public/captcha/challenge', { from })).json();
    const solution = await solveChallenge({ challenge: challenge as never, deriveKey });
    const answer = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const { block } = await demoRequestParts(prisma);
    const tag = Date.now().toString(36);
    const body = {
      firstName: 'Reg',
      lastName: `Many${tag}`,
      jobTitle: 'Coordinator',
      organizationName: 'Clinic',
      phoneNumber: '555-0100',
      email: `reg.many.${tag}@example.org`,
      accessControls: [block],
      requesterComments: 'Please add me',
      'g-recaptcha-response': answer,
    };
    const filed = await send(b, '/rest/public/user_registration', { method: 'POST', body, from });
    expect(filed.status, filed.body).toBe(200);
    for (const base of [a, b]) {
      const replay = await send(base, '/rest/public/user_registration', {
        method: 'POST',
        body: { ...body, email: `reg.replay.${tag}@example.org` },
        from,
      });
      expect(replay.status).toBe(422);
      expect(replay.json().fieldErrors).toEqual({
        'g-recaptcha-response': [REGISTRATION_MESSAGES.captchaRequired],
      });
    }
  });

  it('serve, on one, a system configured on the other, long before the cached list would expire', async () => {
    const from = loopbackClient();
    const systems = '/rest/public/user_registration/system_accesses/';
    // B holds the list in memory (for a minute) before the change.
    expect((await send(b, systems, { from })).status).toBe(200);
    const admin = await signInAt(a, 'admin', demoPassword('admin'), from);
    const name = `Many Processes ${Date.now().toString(36)}`;
    const created = await send(a, '/rest/secure/system_mgmt/system_access/', {
      method: 'POST',
      session: admin,
      body: { systemName: name, description: '' },
      from,
    });
    expect(created.status, created.body).toBe(200);
    // PostgreSQL tells B (reference_changed): B lists it well inside the list's time-to-live.
    await until(async () => (await send(b, systems, { from })).body.includes(name), 'B to list the new system', 5_000);
  });

  it('review on one a request filed on the other', async () => {
    const from = loopbackClient();
    const u = await createTestUser({ prisma, directory: directory() }, 'mpfile');
    const { block } = await demoRequestParts(prisma);
    const requester = await signInAt(a, u.username, u.password, from);
    const filed = await send(a, '/rest/secure/user_access_mod_request', {
      method: 'POST',
      session: requester,
      body: { portalUserId: u.user.id, requestType: 'NEW', accessControls: [block] },
      from,
    });
    expect(filed.status, filed.body).toBe(200);
    const { id, versionno } = filed.json<{ id: number; versionno: number }>();
    const reviewer = await signInAt(b, 'reviewer', demoPassword('reviewer'), from);
    const reviewed = await send(b, '/rest/secure/user_management/review_access_change_request', {
      method: 'PUT',
      session: reviewer,
      body: {
        userAccessModificationRequest: { id, versionno, requestStatus: 'IN_PROGRESS', reviewerComments: '' },
      },
      from,
    });
    expect(reviewed.status, reviewed.body).toBe(200);
    // The update returns after the projection: the row, read by either process, says IN_PROGRESS.
    const row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
    expect(row.requestStatus).toBe('IN_PROGRESS');
    const history = await send(a, `/rest/secure/user_access_mod_request/user/${u.user.id}`, {
      session: requester,
      from,
    });
    expect(history.status, history.body).toBe(200);
    expect(history.body).toContain('IN_PROGRESS');
  });
});

describe('two workers', () => {
  /**
   * The pid of the worker running the batch's filing: a local activity, so it runs inside the workflow task of
   * the worker that last started one (its Temporal identity is `pid@host`).
   */
  async function pidRunningFiling(batchId: number): Promise<number | undefined> {
    const history = await temporal.workflow.getHandle(proxyBatchWorkflowId(batchId)).fetchHistory();
    const started = (history.events ?? []).filter((e) => e.workflowTaskStartedEventAttributes).at(-1);
    const pid = Number((started?.workflowTaskStartedEventAttributes?.identity ?? '').split('@')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** Waits until worker `index` was restarted after `since` (a log index) and polls again. */
  async function restarted(index: number, since: number): Promise<void> {
    const name = index === 0 ? 'worker' : `worker-${index + 1}`;
    await until(
      async () =>
        lines.slice(since).some((l) => l.startsWith(`[stack] ${name} restarted`)) &&
        lines.slice(since).some((l) => l.startsWith(`[${name}] worker running on task queue`)),
      `${name} to be restarted and polling`,
      60_000,
    );
  }

  /**
   * Files a batch of 5 users on process A as laostaff; user 3's filing waits for its lock, and `victim`
   * (given the batch id) names the worker to kill while it waits. Then the batch must complete with one
   * request per user.
   */
  async function batchSurvives(tag: string, victim: (batchId: number) => Promise<number>): Promise<number> {
    const from = loopbackClient();
    const laostaff: Session = await signInAt(a, 'laostaff', demoPassword('laostaff'), from);
    const { block } = await demoRequestParts(prisma);
    const users: PortalUser[] = await subjectsAt(prisma, 'MA036', 5, tag);
    const release = await holdFilingLock(prisma, users[2]!.id);
    try {
      const filed = await send(a, BATCH_URL, {
        method: 'POST',
        session: laostaff,
        body: { portalUserIds: users.map((u) => u.id), accessControls: [block] },
        from,
      });
      expect(filed.status, filed.body).toBe(200);
      const batchId = filed.json<{ id: number }>().id;
      await until(() => filingWaits(prisma, users[2]!.id), "the batch's filing of user 3", 60_000);
      const index = await victim(batchId);
      const since = lines.length;
      process.kill(stack.apps!.workers[index]!.current().pid, 'SIGKILL');
      await release();
      const batch = await batchEnded(prisma, batchId, 180_000);
      expect(batch).toMatchObject({ status: 'COMPLETED', processed: 5, numSuccesses: 5, numFailures: 0 });
      const requests = await prisma.accessModRequest.findMany({
        where: { subjectUserId: { in: users.map((u) => u.id) } },
      });
      expect(requests.map((r) => r.subjectUserId).sort()).toEqual(users.map((u) => u.id).sort());
      await restarted(index, since);
      return index;
    } finally {
      await release();
    }
  }

  it('carry a batch through kill -9 of the worker running its filing, then of the other one', async () => {
    const workers = stack.apps!.workers;
    const first = await batchSurvives('mpkilla', async (batchId) => {
      let pid: number | undefined;
      await until(
        async () => (pid = await pidRunningFiling(batchId)) !== undefined,
        'a worker to run the batch',
        30_000,
      );
      const index = workers.findIndex((w) => w.current().pid === pid);
      expect(index, `a worker of this stack runs the filing (pid ${pid})`).toBeGreaterThanOrEqual(0);
      return index;
    });
    await batchSurvives('mpkillb', async () => 1 - first);
  }, 420_000);
});
