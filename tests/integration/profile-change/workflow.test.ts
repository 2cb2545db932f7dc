/**
 * The profile-change workflow on the real dev server (REQUEST-LIFECYCLE "Tests every kind gets"): the approved
 * and rejected paths with the workflow's final state and audit trail, the directory write failing once and
 * being retried (one write, the name and email applied once), 'Email address already exists in database' found
 * again inside the commit (refused with state and version unchanged, approved once the email is free), an
 * approval while the mail server is down (APPROVED, MAIL_FAILED), and the recorded histories of the main paths
 * (RECORD_HISTORIES=1).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { readPersonFields } from '@portal/directory';
import { type PortalActivities, createActivities } from '@portal/worker';
import { testMailSettings, waitForMail } from '../fixtures';
import { type Session, signIn } from '../harness';
import { auditActions, maybeRecordHistory } from '../lifecycle/support';
import { MAIL_DOWN, useWorkflowApis, withWorker } from '../workflow-apis';
import { askedFor, fileChange, newRequester, reviewCall } from './support';

const { apis, newApi, temporal, finalState } = useWorkflowApis('profile-change-wf');
let reviewer: Session;

beforeAll(async () => {
  reviewer = await signIn(apis[0]!.app, 'reviewer');
});

describe('profile-change workflow', () => {
  it('comment-only save, refused save, approval: APPROVED, applied, audited, mailed to the new address', async () => {
    const api = apis[0]!;
    await withWorker(api, {}, async () => {
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
    });
  });

  it('rejection: REJECTED, nothing applied, the workflow completes', async () => {
    const api = apis[0]!;
    await withWorker(api, {}, async () => {
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
    });
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
    await withWorker(api, { overrides }, async () => {
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
    });
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
    await withWorker(api, { overrides }, async () => {
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
    });
  });

  it('approval with the mail server down: APPROVED, MAIL_FAILED', async () => {
    const api = await newApi({ MAIL_DEADLINE: '3 seconds' });
    await withWorker(api, { smtpUrl: MAIL_DOWN }, async () => {
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
    });
  });
});
