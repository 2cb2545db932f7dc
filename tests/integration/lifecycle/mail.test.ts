/**
 * Mail of the lifecycle against real PostgreSQL and the SMTP catcher (REQUEST-LIFECYCLE rule 5 and
 * "Reminders"): overlapping attempts of one mail send it once; the reviewers' digest, run by a Temporal
 * Schedule with a shortened interval, lists what waits, mails once per run and is audited, and sends
 * nothing when nothing waits. And (issue 21) the mail server away during a resolution mail, then back: the
 * worker reaches MailDev through a fault proxy (tests/support/fault-proxy.ts) that refuses connections (stopped)
 * or forwards nothing (frozen), past one attempt's SMTP timeouts or past the whole mail deadline.
 */
import { describe, expect, it } from 'vitest';
import { type ApplicationFailure } from '@temporalio/common';
import type { PrismaClient } from '@portal/db';
import { readMail } from '@portal/scripts';
import { createActivities, createTransport, ensureReviewerDigestSchedule, sendOnce } from '@portal/worker';
import { FAULTS, type FaultProxy, faultName, proxyFor } from '../../support/fault-proxy';
import { pendingActivity } from '../../support/pending-activity';
import { stackEnv, testMailSettings, waitForMail } from '../fixtures';
import { reviewUpdate } from '@portal/workflows';
import {
  type FiledRequest,
  type TemporalTestEnv,
  auditActions,
  fileAccessRequest,
  newWorker,
  review,
  uniqueQueue,
  until,
  useLifecycleStack,
} from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

describe('lifecycle mail', () => {
  it('sends one mail when two attempts of the same mail overlap', async () => {
    const transport = createTransport(testMailSettings());
    const key = `overlap-${Date.now()}`;
    const mail = {
      key,
      messageId: `<${key}@portal.test>`,
      from: 'portal-gateway@portal.test',
      to: 'overlap@portal.test',
      subject: `Overlap ${key}`,
      text: 'once',
      audit: { actorUsername: 'system', entityType: 'Test', entityId: key, action: 'MAIL_SENT' },
    };
    const outcomes = await Promise.allSettled([sendOnce(prisma, transport, mail), sendOnce(prisma, transport, mail)]);
    const sent = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'SENT');
    expect(sent).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect((o.reason as ApplicationFailure).type).toBe('MAIL_IN_FLIGHT');
    }
    // A later attempt (the retry of the one that backed off) finds it sent.
    expect(await sendOnce(prisma, transport, mail)).toBe('ALREADY_SENT');
    await waitForMail('overlap@portal.test', key);
    const caught = (await readMail(stackEnv().MAIL_API_URL!)).filter((m) => m.subject.includes(key));
    expect(caught).toHaveLength(1);
    expect(await prisma.auditEvent.count({ where: { idempotencyKey: key } })).toBe(1);
  });

  it('sends no digest when nothing waits', async () => {
    const { sendReviewerDigest } = createActivities(prisma, testMailSettings());
    const result = await sendReviewerDigest({
      waitingLongerThanMs: 100 * 365 * 86_400_000,
      to: 'nobody-waits@portal.test',
      runKey: `digest-empty-${Date.now()}`,
    });
    expect(result).toEqual({ listed: 0 });
  });

  it('mails the reviewers a digest of what waits, from a Temporal Schedule, once per run', async () => {
    const taskQueue = uniqueQueue('lifecycle-digest');
    const to = `reviewers-${Date.now()}@portal.test`;
    const scheduleId = `digest-test-${Date.now()}`;
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      await new Promise((r) => setTimeout(r, 1_100));
      await ensureReviewerDigestSchedule(env.client, {
        scheduleId,
        every: '3 seconds',
        waitingLongerThan: '1 second',
        to,
        taskQueue,
      });
      try {
        const mail = await waitForMail(to, 'waiting for review', 30_000);
        expect(mail.text).toContain(`Access change request #${filed.id} (New)`);
        expect(mail.text).toContain('/app/user-requests');
        // The outbox audits a mail once the server took it, so the row may land a moment after the mail.
        const digestAudit = () =>
          prisma.auditEvent.findFirst({ where: { action: 'DIGEST_SENT', entityId: { startsWith: scheduleId } } });
        await until(async () => (await digestAudit()) !== null, `the DIGEST_SENT audit row of ${scheduleId}`);
        const audit = (await digestAudit())!;
        expect(audit.after).toMatchObject({
          to,
          listed: expect.arrayContaining([`Access change request #${filed.id}`]),
        });
        // Converges instead of failing when the schedule exists.
        await ensureReviewerDigestSchedule(env.client, {
          scheduleId,
          every: '1 hour',
          waitingLongerThan: '1 second',
          to,
          taskQueue,
        });
        const desc = await env.client.schedule.getHandle(scheduleId).describe();
        expect(desc.spec.intervals?.[0]?.every).toBe(3_600_000);
        // Resolved, so the subject may file again in other tests.
        await env.client.workflow
          .getHandle(filed.workflowId)
          .executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
      } finally {
        await env.client.schedule.getHandle(scheduleId).delete();
      }
    });
  });
});

describe('the mail server away during a resolution mail, then back (issue 21)', () => {
  /** Runs `body` while a worker on a task queue of its own sends its mail to MailDev through a fault proxy. */
  async function withMailBehindProxy(
    name: string,
    body: (proxy: FaultProxy, taskQueue: string) => Promise<void>,
    activitySlots?: number,
  ) {
    const { proxy, url } = await proxyFor(testMailSettings().smtpUrl);
    const taskQueue = uniqueQueue(name);
    try {
      const mail = { ...testMailSettings(), smtpUrl: url };
      const worker = await newWorker(env, prisma, taskQueue, { mail, activitySlots });
      await worker.runUntil(() => body(proxy, taskQueue));
    } finally {
      proxy.heal();
      await proxy.close();
    }
  }

  /** The mails MailDev caught for the request's subject. */
  const mailsOf = async (filed: FiledRequest) =>
    (await readMail(stackEnv().MAIL_API_URL!)).filter((m) => m.to.some((t) => t.address === filed.email));
  const outboxOf = (filed: FiledRequest) =>
    prisma.outboundMail.findUnique({ where: { key: `${filed.workflowId}:mail` } });

  for (const fault of FAULTS) {
    it(`retries the mail while its server is ${faultName(fault)} (an attempt failed), then delivers it once`, async () => {
      await withMailBehindProxy(`lifecycle-mail-${fault}`, async (proxy, taskQueue) => {
        const filed = await fileAccessRequest(env, prisma, taskQueue, { notificationDeadline: '2 minutes' });
        const handle = env.client.workflow.getHandle(filed.workflowId);
        proxy.fail(fault);
        await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
        // The first attempt gives up: refused at once, or frozen until its SMTP greeting timeout (10 s).
        await until(
          async () => (await pendingActivity(handle, 'sendResolutionMail'))?.lastFailure !== undefined,
          'a failed mail attempt',
          30_000,
        );
        expect(await mailsOf(filed)).toEqual([]);
        expect(await outboxOf(filed)).toMatchObject({ status: 'SENDING' });

        proxy.heal();
        expect(await handle.result()).toMatchObject({ status: 'REJECTED' });
        expect((await handle.describe()).status.name).toBe('COMPLETED');
        await waitForMail(filed.email, '');
        expect(await mailsOf(filed)).toHaveLength(1);
        expect(await outboxOf(filed)).toMatchObject({ status: 'SENT', attempts: 2 });
        expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_SENT']);
      });
    });
  }

  it('completes with MAIL_FAILED when the server stays frozen past the mail deadline; resumed, the send in flight delivers once', async () => {
    await withMailBehindProxy('lifecycle-mail-hang-deadline', async (proxy, taskQueue) => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { notificationDeadline: '3 seconds' });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      proxy.hang();
      await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
      expect(await handle.result()).toMatchObject({ status: 'REJECTED' });
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_FAILED']);
      expect(await mailsOf(filed)).toEqual([]);

      // The attempt given up still waits for the server's greeting (its own SMTP timeouts, 10 s): resumed, the
      // server answers it and the mail goes out, once; the outbox and the audit trail say so after MAIL_FAILED.
      proxy.heal();
      await waitForMail(filed.email, '');
      await until(async () => (await outboxOf(filed))?.status === 'SENT', 'the outbox row marked SENT');
      expect(await mailsOf(filed)).toHaveLength(1);
      expect(await outboxOf(filed)).toMatchObject({ status: 'SENT', attempts: 1 });
      expect(await auditActions(prisma, filed.workflowId)).toEqual([
        'CREATED',
        'STATUS_REJECTED',
        'MAIL_FAILED',
        'MAIL_SENT',
      ]);
    });
  });

  it('never records MAIL_FAILED after the mail went: an attempt still in flight past the deadline that delivers has the last word', async () => {
    // One activity slot: the attempt given up at the deadline, still waiting for the frozen server's greeting,
    // keeps it, so the MAIL_FAILED bookkeeping runs only once that attempt has ended (a busy worker does the same).
    await withMailBehindProxy(
      'lifecycle-mail-late-slot',
      async (proxy, taskQueue) => {
        const filed = await fileAccessRequest(env, prisma, taskQueue, { notificationDeadline: '3 seconds' });
        const handle = env.client.workflow.getHandle(filed.workflowId);
        proxy.hang();
        await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
        await until(
          async () => (await pendingActivity(handle, 'recordMailFailure')) !== undefined,
          'the mail given up at its deadline and its MAIL_FAILED bookkeeping scheduled',
        );
        expect(await mailsOf(filed)).toEqual([]);

        proxy.heal();
        expect(await handle.result()).toMatchObject({ status: 'REJECTED' });
        await waitForMail(filed.email, '');
        expect(await mailsOf(filed)).toHaveLength(1);
        // The late attempt records SENT once the server has taken the mail, so a moment after MailDev shows it
        // (on a busy machine the test read SENDING in between).
        await until(
          async () => (await outboxOf(filed))?.status === 'SENT',
          'the late attempt recording the mail as sent',
        );
        expect(await outboxOf(filed)).toMatchObject({ status: 'SENT', attempts: 1 });
        // What the audit trail says of the mail agrees with what MailDev received: it went, nothing says otherwise.
        await until(
          async () => (await auditActions(prisma, filed.workflowId)).includes('MAIL_SENT'),
          'the late attempt auditing MAIL_SENT',
        );
        expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_SENT']);
      },
      1,
    );
  });
});
