/**
 * The profile-change workflow on the real dev server (REQUEST-LIFECYCLE "Tests every kind gets"): the approved
 * and rejected paths with the workflow's final state and audit trail, the directory write failing once and
 * being retried (one write, the name and email applied once), 'Email address already exists in database' found
 * again inside the commit (refused with state and version unchanged, approved once the email is free), an
 * approval while the mail server is down (APPROVED, MAIL_FAILED), and the recorded histories of the main paths
 * (RECORD_HISTORIES=1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { Client, Connection } from '@temporalio/client';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { readPersonFields } from '@portal/directory';
import { type PortalActivities, createActivities } from '@portal/worker';
import { testMailSettings, waitForMail } from '../fixtures';
import { type Session, type TestApi, signIn, startApi } from '../harness';
import { type TemporalTestEnv, auditActions, maybeRecordHistory, uniqueQueue } from '../lifecycle/support';
import { startRegistrationWorker } from '../registrations/support';
import { askedFor, fileChange, newRequester, reviewCall } from './support';

let reviewer: Session;
const apis: TestApi[] = [];
let temporal: TemporalTestEnv;

beforeAll(async () => {
  const connection = await Connection.connect({ address: (await newApi()).cfg.TEMPORAL_ADDRESS });
  temporal = { client: new Client({ connection }), native: undefined as never, close: () => connection.close() };
  reviewer = await signIn(apis[0]!.app, 'reviewer');
}, 60_000);

afterAll(async () => {
  await temporal?.close();
  for (const api of apis) await api.close();
});

async function newApi(env: Record<string, string> = {}): Promise<TestApi> {
  const api = await startApi({ TEMPORAL_TASK_QUEUE: uniqueQueue('profile-change-wf'), ...env });
  apis.push(api);
  return api;
}

const finalState = (workflowId: string) => temporal.client.workflow.getHandle(workflowId).result();

describe('profile-change workflow', () => {
  it('comment-only save, refused save, approval: APPROVED, applied, audited, mailed to the new address', async () => {
    const api = apis[0]!;
    const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE);
    try {
      const r = await newRequester(api, 'pcwfok');
      const filed = await fileChange(api, r);
      expect(
        (await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'NEW', sysaidTicket: 'T-1' }))
          .statusCode,
      ).toBe(200);
      expect(
        (await reviewCall(api, reviewer, filed, { versionno: 1, requestStatus: 'NEW', sysaidTicket: 'T-1' }))
          .statusCode,
      ).toBe(304);
      const approved = await reviewCall(api, reviewer, filed, {
        versionno: 1,
        requestStatus: 'APPROVED',
        sysaidTicket: 'T-1',
      });
      expect(approved.statusCode, approved.body).toBe(200);
      await waitForMail(filed.email, 'was approved');
      expect(await finalState(filed.workflowId)).toMatchObject({
        status: 'APPROVED',
        version: 2,
        outsideEffectsRan: true,
      });
      expect(await auditActions(api.prisma, filed.workflowId)).toEqual([
        'CREATED',
        'REVIEW_SAVED',
        'PROFILE_CHANGED',
        'STATUS_APPROVED',
        'MAIL_SENT',
      ]);
      await maybeRecordHistory(temporal, filed.workflowId, 'profile-change', 'approved');
    } finally {
      await stop();
    }
  });

  it('rejection: REJECTED, nothing applied, the workflow completes', async () => {
    const api = apis[0]!;
    const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE);
    try {
      const r = await newRequester(api, 'pcwfno');
      const filed = await fileChange(api, r);
      const res = await reviewCall(api, reviewer, filed, {
        versionno: 0,
        requestStatus: 'REJECTED',
        reviewerComments: 'no',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await finalState(filed.workflowId)).toMatchObject({
        status: 'REJECTED',
        version: 1,
        outsideEffectsRan: false,
      });
      expect(await auditActions(api.prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_SENT']);
      expect(await readPersonFields(api.directory, r.user.user.uuid!)).toMatchObject({ email: r.user.email });
      await maybeRecordHistory(temporal, filed.workflowId, 'profile-change', 'rejected');
    } finally {
      await stop();
    }
  });

  it('the directory write fails once and is retried: applied once, to the entry and the user', async () => {
    const api = await newApi({ REVIEW_DEADLINE_MS: '60000' });
    const real = createActivities(api.prisma, testMailSettings(), api.directory);
    let attempts = 0;
    const overrides: Partial<PortalActivities> = {
      applyOutsideEffects: async (input) => {
        if (attempts++ === 0) throw ApplicationFailure.retryable('directory unreachable', 'ECONNREFUSED');
        await real.applyOutsideEffects(input);
      },
    };
    const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE, { overrides });
    try {
      const r = await newRequester(api, 'pcwfretry');
      const filed = await fileChange(api, r);
      const res = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' });
      expect(res.statusCode, res.body).toBe(200);
      expect(attempts).toBe(2);
      const asked = askedFor(r);
      expect(await readPersonFields(api.directory, r.user.user.uuid!)).toMatchObject({
        firstName: asked.firstName,
        lastName: asked.lastName,
        email: asked.email,
      });
      expect(await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } })).toMatchObject({
        firstName: asked.firstName,
        email: asked.email,
      });
      expect((await auditActions(api.prisma, filed.workflowId)).filter((a) => a === 'PROFILE_CHANGED')).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it('an email taken between the directory write and the commit is refused by the commit, state unchanged', async () => {
    const api = await newApi();
    const real = createActivities(api.prisma, testMailSettings(), api.directory);
    const other = await newRequester(api, 'pcwfother');
    let taken = false;
    const overrides: Partial<PortalActivities> = {
      // Another user takes the email right after the directory write (a race the API's check cannot see).
      applyOutsideEffects: async (input) => {
        await real.applyOutsideEffects(input);
        if (!taken) {
          taken = true;
          const request = await api.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id: input.requestId } });
          await api.prisma.portalUser.update({ where: { id: other.user.user.id }, data: { email: request.email } });
        }
      },
    };
    const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE, { overrides });
    try {
      const r = await newRequester(api, 'pcwfrace');
      const filed = await fileChange(api, r);
      const refused = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().fieldErrors).toEqual({ email: [PROFILE_CHANGE_MESSAGES.emailInUse] });
      expect(await api.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'NEW',
        versionno: 0,
      });
      expect(await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } })).toMatchObject({
        email: r.user.email,
      });
      const state = await temporal.client.workflow.getHandle(filed.workflowId).query('state');
      expect(state).toMatchObject({ status: 'NEW', version: 0, outsideEffectsRan: true });
      // The email is freed: the approval (the only save left once the directory was written) goes through.
      await api.prisma.portalUser.update({ where: { id: other.user.user.id }, data: { email: other.user.email } });
      const approved = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } })).toMatchObject({
        email: filed.email,
      });
    } finally {
      await stop();
    }
  });

  it('approval with the mail server down: APPROVED, MAIL_FAILED', async () => {
    const api = await newApi({ MAIL_DEADLINE: '3 seconds' });
    const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE, { smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      const r = await newRequester(api, 'pcwfmail');
      const filed = await fileChange(api, r);
      expect((await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' })).statusCode).toBe(
        200,
      );
      expect(await finalState(filed.workflowId)).toMatchObject({ status: 'APPROVED' });
      expect(await auditActions(api.prisma, filed.workflowId)).toEqual([
        'CREATED',
        'PROFILE_CHANGED',
        'STATUS_APPROVED',
        'MAIL_FAILED',
      ]);
      await maybeRecordHistory(temporal, filed.workflowId, 'profile-change', 'mail-failed');
    } finally {
      await stop();
    }
  });
});
