/**
 * The registration workflow on the real dev server (REQUEST-LIFECYCLE "Tests every kind gets"): every
 * transition through the API with the workflow's final state and audit trail, an approval whose directory
 * write and commit are both retried as after a worker crash between them (one user, one entry), an approval
 * whose worker process is killed (kill -9) in the commit after the directory write, an approval
 * while the directory is down (202 and nothing written, then approved once it is back), an approval
 * while the mail server is down (APPROVED, MAIL_FAILED, the link resent through set_initial_password/resend),
 * and the recorded histories of the main paths (RECORD_HISTORIES=1).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { findPeopleByEmail } from '@portal/directory';
import { freePort } from '@portal/scripts';
import { type PortalActivities, createActivities } from '@portal/worker';
import { testMailSettings, waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, signIn } from '../harness';
import { auditActions, maybeRecordHistory, until } from '../lifecycle/support';
import { killWorkerProcess, startWorkerProcess } from '../worker-process';
import { MAIL_DOWN, useWorkflowApis, withWorker } from '../workflow-apis';
import { fileByProxy, startRegistrationWorker } from './support';

/** True while a statement on the Registration table waits for a lock (the held row). */
async function commitWaiting(api: TestApi): Promise<boolean> {
  const [row] = await api.prisma.$queryRaw<[{ n: bigint }]>`
    SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%Registration%'`;
  return Number(row.n) > 0;
}

const { apis, newApi, temporal, finalState } = useWorkflowApis('registrations-wf');
let reviewer: Session;
let proxy: Session;
let userRole: number;

beforeAll(async () => {
  reviewer = await signIn(apis[0]!.app, 'reviewer');
  proxy = await signIn(apis[0]!.app, 'user');
  userRole = (await apis[0]!.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } })).id;
});

const file = (api: TestApi) => fileByProxy(api, proxy);

const approve = (api: TestApi, reg: { id: number }, versionno = 0) =>
  caller(api.app)(reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
    registrationForm: { id: reg.id, versionno },
    portalRoleIds: [userRole],
    username: `wf${reg.id}`,
  });

/** The approval's effects happened once: one directory entry, one portal user, one USER_CREATED audit row. */
async function expectCreatedOnce(api: TestApi, reg: { email: string; workflowId: string }) {
  expect(await findPeopleByEmail(api.directory, reg.email)).toHaveLength(1);
  expect(await api.prisma.portalUser.count({ where: { email: reg.email } })).toBe(1);
  expect((await auditActions(api.prisma, reg.workflowId)).filter((a) => a === 'USER_CREATED')).toHaveLength(1);
}

describe('registration workflow', () => {
  it('save, refused save, approve: APPROVED with the user, the audit trail and the mail', async () => {
    const api = await newApi();
    await withWorker(api, {}, async () => {
      const reg = await file(api);
      const put = (body: Record<string, unknown>) =>
        caller(api.app)(reviewer, 'PUT', `/rest/secure/user_registration/${reg.id}`, { id: reg.id, ...body });
      expect((await put({ versionno: 0, sysaidTicket: 'T-1' })).statusCode).toBe(200);
      // Refused by the commit (nothing changed): the state and version stay.
      expect((await put({ versionno: 1, sysaidTicket: 'T-1' })).statusCode).toBe(304);
      expect((await approve(api, reg, 1)).statusCode).toBe(200);
      await waitForMail(reg.email, 'your account was created');
      expect(await finalState(reg.workflowId)).toMatchObject({
        status: 'APPROVED',
        version: 2,
        outsideEffectsRan: true,
      });
      expect(await auditActions(api.prisma, reg.workflowId)).toEqual([
        'CREATED',
        'REVIEW_SAVED',
        'USER_CREATED',
        'STATUS_APPROVED',
        'MAIL_SENT',
      ]);
      await maybeRecordHistory(temporal, reg.workflowId, 'registration', 'approved-subject-user-id');
    });
  });

  it.each([
    ['deny', 'DENIED', 'denied', ['CREATED', 'STATUS_DENIED', 'MAIL_SENT']],
    ['delete', 'DELETED', 'deleted', ['CREATED', 'STATUS_DELETED']],
  ])('%s: %s, the workflow completes', async (action, status, history, audit) => {
    const api = await newApi();
    await withWorker(api, {}, async () => {
      const reg = await file(api);
      const res =
        action === 'deny'
          ? await caller(api.app)(reviewer, 'PUT', '/rest/secure/user_registration_action/deny', {
              registrationForm: { id: reg.id, versionno: 0 },
            })
          : await caller(api.app)(reviewer, 'DELETE', `/rest/secure/user_registration/${reg.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(await finalState(reg.workflowId)).toMatchObject({ status, version: 1, outsideEffectsRan: false });
      expect(await auditActions(api.prisma, reg.workflowId)).toEqual(audit);
      await maybeRecordHistory(temporal, reg.workflowId, 'registration', history);
    });
  });

  it('an approval retried after a crash between the directory write and the commit: one entry, one user', async () => {
    const api = await newApi({ REVIEW_DEADLINE_MS: '60000' });
    const real = createActivities(api.prisma, testMailSettings(), api.directory);
    const attempts = { outside: 0, commit: 0 };
    const overrides: Partial<PortalActivities> = {
      // The entry is written, then the worker "dies" before the activity completes: Temporal retries it.
      applyOutsideEffects: async (input) => {
        await real.applyOutsideEffects(input);
        if (attempts.outside++ === 0) throw ApplicationFailure.retryable('worker lost after the directory write');
      },
      // The commit's first attempt is lost too: nothing was written, the retry writes once.
      commitSave: async (input) => {
        if (input.toStatus === 'APPROVED' && attempts.commit++ === 0) {
          throw ApplicationFailure.retryable('worker lost before the commit');
        }
        return real.commitSave(input);
      },
    };
    await withWorker(api, { overrides }, async () => {
      const reg = await file(api);
      const res = await approve(api, reg);
      expect(res.statusCode, res.body).toBe(200);
      expect(attempts).toEqual({ outside: 2, commit: 2 });
      await expectCreatedOnce(api, reg);
    });
  });

  it('an approval whose worker process is killed after the directory write, in the commit: one entry, one user', async () => {
    // The killed worker's commit is retried once its attempt's start-to-close timeout has passed: 10 s instead
    // of 30, still well above a healthy commit's time on a busy machine.
    const api = await newApi({ REVIEW_DEADLINE_MS: '3000', WRITE_ATTEMPT_TIMEOUT: '10 seconds' });
    const queue = api.cfg.TEMPORAL_TASK_QUEUE;
    const reg = await file(api);
    // Hold the registration row: the killed worker's commit (after the entry's write) waits on it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = api.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "Registration" WHERE "id" = ${reg.id} FOR UPDATE`;
        await held;
      },
      { timeout: 120_000 },
    );
    const child = await startWorkerProcess(queue);
    let stop: (() => Promise<void>) | undefined;
    try {
      expect((await approve(api, reg)).statusCode).toBe(202);
      await until(
        async () => (await findPeopleByEmail(api.directory, reg.email)).length === 1 && (await commitWaiting(api)),
        'the entry written and the commit waiting on the registration row',
        60_000,
      );
      await killWorkerProcess(child);
      release();
      await holder;
      expect(await api.prisma.portalUser.count({ where: { email: reg.email } })).toBe(0);
      expect(await api.prisma.registration.findUniqueOrThrow({ where: { id: reg.id } })).toMatchObject({
        registrationStatus: 'PENDING',
      });

      // The activity is retried after its attempt's start-to-close timeout, on the new worker.
      stop = await startRegistrationWorker(api, queue);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'APPROVED' });
      await expectCreatedOnce(api, reg);
    } finally {
      release();
      await killWorkerProcess(child);
      await stop?.();
    }
  }, 180_000);

  it('an approval while the directory is down: 202, nothing written, then approved once when it is back', async () => {
    const api = await newApi({ REVIEW_DEADLINE_MS: '3000' });
    const queue = api.cfg.TEMPORAL_TASK_QUEUE;
    // A worker whose directory address has nothing listening: every attempt of the entry's write is refused.
    const down = { ...api.directory, LDAP_URL: `ldap://127.0.0.1:${await freePort()}` };
    const stopDown = await startRegistrationWorker(api, queue, { directory: down });
    let stop = stopDown;
    try {
      const reg = await file(api);
      const res = await approve(api, reg);
      expect(res.statusCode, res.body).toBe(202);
      expect(await findPeopleByEmail(api.directory, reg.email)).toHaveLength(0);
      expect(await api.prisma.portalUser.count({ where: { email: reg.email } })).toBe(0);
      expect(await api.prisma.registration.findUniqueOrThrow({ where: { id: reg.id } })).toMatchObject({
        registrationStatus: 'PENDING',
        versionno: 0,
      });
      expect(await auditActions(api.prisma, reg.workflowId)).toEqual(['CREATED']);

      // The directory is back (a worker that reaches it): the same approval finishes, once.
      await stopDown();
      stop = await startRegistrationWorker(api, queue);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'APPROVED' });
      await expectCreatedOnce(api, reg);
    } finally {
      await stop();
    }
  });

  it('approval with the mail server down: APPROVED, MAIL_FAILED, and the link can be resent', async () => {
    const api = await newApi({ MAIL_DEADLINE: '1 second' });
    await withWorker(api, { smtpUrl: MAIL_DOWN }, async () => {
      const reg = await file(api);
      expect((await approve(api, reg)).statusCode).toBe(200);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'APPROVED' });
      expect(await auditActions(api.prisma, reg.workflowId)).toEqual([
        'CREATED',
        'USER_CREATED',
        'STATUS_APPROVED',
        'MAIL_FAILED',
      ]);
      await maybeRecordHistory(temporal, reg.workflowId, 'registration', 'mail-failed');
      const created = await api.prisma.portalUser.findFirstOrThrow({ where: { email: reg.email } });
      const resend = await caller(api.app)(reviewer, 'POST', `/rest/secure/set_initial_password/resend/${created.id}`);
      expect(resend.statusCode, resend.body).toBe(200);
      const mail = await waitForMail(reg.email, 'set your password');
      expect(mail.text).toMatch(/\/set-initial-password\//);
    });
  });
});
