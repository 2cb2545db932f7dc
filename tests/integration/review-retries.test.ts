/**
 * "Retrying is safe" (REQUEST-LIFECYCLE rule 6; issue 21 case 5) against real PostgreSQL, OpenLDAP and
 * Temporal: a review save answered 202 (no worker polls the task queue yet, so the deadline passes) and then
 * retried with the same attempt key answers the first attempt's outcome (200 with the saved state) after the
 * save completed, after the workflow closed, and once the workflow is gone (the database's key), for resolving
 * saves too: the API's own checks (resolved, username in the directory) never refuse the save that is done.
 * Another attempt key is refused as before. Registration delete carries the attempt key (and its version).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createActivities } from '@portal/worker';
import { createTestUser } from './auth-helpers';
import { demoRequestParts, testMailSettings } from './fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from './harness';
import { uniqueQueue, until } from './lifecycle/support';
import { registrationBody } from './registrations/support';

const taskQueue = uniqueQueue('review-retries');
const REVIEW = '/rest/secure/user_management/review_access_change_request';
let api: TestApi;
let call: ReturnType<typeof caller>;
let reviewer: Session;
let user: Session;

beforeAll(async () => {
  // No worker runs between the tests: every first attempt outlasts this deadline and is answered 202.
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, REVIEW_DEADLINE_MS: '2000' });
  call = caller(api.app);
  reviewer = await signIn(api.app, 'reviewer');
  user = await signIn(api.app, 'user');
});
afterAll(async () => {
  await api?.close();
});

/** Repeats the call while it answers 202 (as the browser does), failing after `timeoutMs`. */
async function answered(send: () => Promise<LightMyRequestResponse>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await send();
    if (res.statusCode !== 202) return res;
    if (Date.now() > deadline) throw new Error(`still 202 after ${timeoutMs} ms: ${res.body}`);
  }
}

const statusOf = async (workflowId: string) =>
  (await api.deps.temporal.workflow.getHandle(workflowId).describe()).status.name;

/** Deletes the closed workflow, as the namespace's retention does, and waits until it is gone. */
async function forget(workflowId: string) {
  await api.deps.temporal.workflowService.deleteWorkflowExecution({
    namespace: api.cfg.TEMPORAL_NAMESPACE,
    workflowExecution: { workflowId },
  });
  await until(
    () =>
      statusOf(workflowId).then(
        () => false,
        (err: unknown) => err instanceof WorkflowNotFoundError,
      ),
    `${workflowId} deleted`,
    // The dev server deletes asynchronously; on a busy machine this took longer than 20 s.
    60_000,
  );
}

/** A worker whose resolution mail waits until `gate.open` (the workflow stays open after a resolving save). */
async function gatedWorker(gate: { open: boolean }, directory = false) {
  const real = createActivities(api.prisma, testMailSettings(), api.directory);
  return startWorker(api, taskQueue, {
    ...(directory ? { directory: api.directory } : {}),
    overrides: {
      sendResolutionMail: async (input) => {
        await until(async () => gate.open, 'the mail gate', 60_000);
        return real.sendResolutionMail(input);
      },
    },
  });
}

/** Files a registration by proxy (no captcha) for a new person. */
async function filedRegistration() {
  const filed = await call(user, 'POST', '/rest/secure/user_registration', await registrationBody(api));
  expect(filed.statusCode, filed.body).toBe(200);
  return filed.json() as { id: number; workflowId: string };
}

const registrationReaches = (id: number, status: string) =>
  until(
    async () => (await api.prisma.registration.findUniqueOrThrow({ where: { id } })).registrationStatus === status,
    `registration ${id} ${status}`,
  );

describe('a review save retried with the same attempt key (issue 21 case 5)', () => {
  it('answers an access-change approval done after a 202: workflow open, closed, then gone', async () => {
    const u = await createTestUser(api, 'retryac');
    const session = await signIn(api.app, u.username, u.password);
    const { block } = await demoRequestParts(api.prisma);
    const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'NEW',
      accessControls: [block],
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const id: number = filed.json().id;
    const workflowId = `access-change-${id}`;
    const approve = (attemptKey: string) =>
      call(reviewer, 'PUT', REVIEW, {
        userAccessModificationRequest: {
          id,
          versionno: 0,
          requestStatus: 'APPROVED',
          reviewerComments: 'ok',
          sysaidTicket: '',
        },
        attemptKey,
      });
    const attemptKey = 'retry-access-0001';

    const first = await approve(attemptKey);
    expect(first.statusCode, first.body).toBe(202);
    const gate = { open: false };
    const stopWorker = await gatedWorker(gate);
    try {
      await until(
        async () => (await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id } })).versionno === 1,
        'the approval committed',
      );
      // The save is done, the workflow waits on its mail: the retry joins the update, the checks never run.
      const retried = await answered(() => approve(attemptKey));
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id, requestStatus: 'APPROVED', versionno: 1, reviewerComments: 'ok' });
      expect(await statusOf(workflowId)).toBe('RUNNING');
      const other = await approve('retry-access-0002');
      expect(other.statusCode, other.body).toBe(422);

      gate.open = true;
      await until(async () => (await statusOf(workflowId)) === 'COMPLETED', `${workflowId} completed`);
      const afterClose = await answered(() => approve(attemptKey));
      expect(afterClose.statusCode, afterClose.body).toBe(200);
      expect(afterClose.json()).toEqual(retried.json());
      expect((await approve('retry-access-0003')).statusCode).toBe(422);
    } finally {
      gate.open = true;
      await stopWorker();
    }

    // Past the namespace's retention the database's key answers.
    await forget(workflowId);
    const fromDatabase = await approve(attemptKey);
    expect(fromDatabase.statusCode, fromDatabase.body).toBe(200);
    expect(fromDatabase.json()).toMatchObject({ id, requestStatus: 'APPROVED', versionno: 1 });
    expect(await api.prisma.auditEvent.count({ where: { workflowId, action: 'STATUS_APPROVED' } })).toBe(1);
  });

  it('answers a registration approval done after a 202, not refused by "username exists"', async () => {
    const reg = await filedRegistration();
    const role = await api.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
    const username = `rr${reg.id}`;
    const approve = (attemptKey: string) =>
      call(reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
        registrationForm: { id: reg.id, versionno: 0, reviewerComments: 'welcome' },
        portalRoleIds: [role.id],
        username,
        gecos: 'Reg Retry',
        attemptKey,
      });
    const attemptKey = 'retry-registration-0001';

    const first = await approve(attemptKey);
    expect(first.statusCode, first.body).toBe(202);
    const stopWorker = await gatedWorker({ open: true }, true);
    try {
      await registrationReaches(reg.id, 'APPROVED');
      const retried = await answered(() => approve(attemptKey));
      expect(retried.statusCode, retried.body).toBe(200);
      const created = await api.prisma.portalUser.findUniqueOrThrow({ where: { username } });
      expect(retried.json()).toMatchObject({
        id: reg.id,
        registrationStatus: 'APPROVED',
        versionno: 1,
        portalUserId: created.id,
      });
      const other = await approve('retry-registration-0002');
      expect(other.statusCode, other.body).toBe(422);
      await until(async () => (await statusOf(reg.workflowId)) === 'COMPLETED', `${reg.workflowId} completed`);
      expect((await answered(() => approve(attemptKey))).json()).toEqual(retried.json());
    } finally {
      await stopWorker();
    }
  });

  it('answers a registration delete done after a 202 (the attempt key and version in the query)', async () => {
    const reg = await filedRegistration();
    const remove = (attemptKey: string) =>
      call(reviewer, 'DELETE', `/rest/secure/user_registration/${reg.id}?versionno=0&attemptKey=${attemptKey}`);
    const attemptKey = 'retry-delete-0001';

    const first = await remove(attemptKey);
    expect(first.statusCode, first.body).toBe(202);
    const stopWorker = await gatedWorker({ open: true }, true);
    try {
      await registrationReaches(reg.id, 'DELETED');
      const retried = await answered(() => remove(attemptKey));
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id: reg.id, registrationStatus: 'DELETED', versionno: 1 });
      // Another attempt finds the registration gone from every list, as before.
      expect((await remove('retry-delete-0002')).statusCode).toBe(404);
    } finally {
      await stopWorker();
    }
    // An attempt key without the version it was made for cannot be joined: refused before anything is sent.
    const noVersion = await call(
      reviewer,
      'DELETE',
      `/rest/secure/user_registration/${reg.id}?attemptKey=${attemptKey}`,
    );
    expect(noVersion.statusCode).toBe(422);
    expect(noVersion.json().fieldErrors).toEqual({ versionno: ['required'] });
  });
});
