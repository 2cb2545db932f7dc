/**
 * Access review campaigns when their dependencies fail (issue 25 "Failure and scale"), on the real stack:
 * - the worker process killed (kill -9) during the snapshot and during the removals: once a worker runs again,
 *   every item is stored once, every removal is done once (one new version, one audit row, one mail per
 *   person) and the campaign finishes;
 * - PostgreSQL stopped (a fault proxy in front of the worker's database) during the removals: the campaign
 *   waits (the removal batch retried, nothing done twice) and finishes once it is back;
 * - SMTP down past the mail deadline: the reviewers' invitation and the removed person's mail are audited
 *   MAIL_FAILED, and the campaign still closes;
 * - an address the SMTP server refuses for good (550, a real `smtp-server` started here): audited MAIL_FAILED
 *   at once, and every other reviewer and removed person is mailed.
 * The kills land at a known point: the test holds a record's item slot or a person's access lock, so the
 * activity waits there.
 */
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import type { AccessReviewSummary } from '@portal/workflows';
import { openDatabaseBehindProxy } from '../../support/database-fault';
import { pendingActivity } from '../../support/pending-activity';
import { stackEnv, testMailSettings, testPrisma } from '../fixtures';
import {
  type TemporalTestEnv,
  connectTemporal,
  maybeRecordHistory,
  newWorker,
  uniqueQueue,
  until,
} from '../lifecycle/support';
import { killWorkerProcess, startWorkerProcess } from '../worker-process';
import {
  accessAudit,
  busyStatements,
  campaignRow,
  fileCampaign,
  grant,
  holdItemSlot,
  holdUserLock,
  itemsOf,
  mailsTo,
  peopleWith,
  person,
  someoneWaits,
  startCampaign,
  tag,
  userLockWaits,
} from './support';

let prisma: PrismaClient;
let env: TemporalTestEnv;

beforeAll(async () => {
  prisma = testPrisma();
  env = await connectTemporal();
});
afterAll(async () => {
  await env?.close();
  await prisma?.$disconnect();
});

const resultOf = (workflowId: string) =>
  env.client.workflow.getHandle(workflowId).result() as Promise<AccessReviewSummary>;

/** Runs an in-process worker on `queue` until `done` settles. */
async function workerUntil<T>(queue: string, done: () => Promise<T>, db: PrismaClient = prisma): Promise<T> {
  const worker = await newWorker(env, db, queue);
  return worker.runUntil(done);
}

/** Every removal of `records` done once: one inactive new version and one audit row each. */
async function removedOnce(portalUserIds: number[], accessIds: number[]) {
  expect(await prisma.userAccess.count({ where: { portalUserId: { in: portalUserIds }, inactive: false } })).toBe(0);
  const versions = await prisma.userAccess.groupBy({
    by: ['priorAccessControlId'],
    where: { priorAccessControlId: { in: accessIds } },
    _count: { _all: true },
  });
  expect(versions).toHaveLength(accessIds.length);
  expect(versions.every((v) => v._count._all === 1)).toBe(true);
  const audit = await prisma.auditEvent.findMany({
    where: { action: 'ACCESS_REMOVED_BY_REVIEW', entityId: { in: portalUserIds.map(String) } },
  });
  expect(audit.map((a) => (a.after as { accessId: number }).accessId).sort((a, b) => a - b)).toEqual(
    [...accessIds].sort((a, b) => a - b),
  );
}

describe('a worker killed (kill -9)', () => {
  it('during the snapshot: once a worker runs again every item is stored once and the campaign finishes', async () => {
    const queue = uniqueQueue('access-review-kill-snapshot');
    const roles = [1, 2, 3].map((i) => tag(`Kill role ${i} `));
    const people = await peopleWith(prisma, 100, roles, 'killsnap');
    const records = await prisma.userAccess.findMany({
      where: { portalUserId: { in: people.map((p) => p.id) } },
      orderBy: { id: 'asc' },
    });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: roles } });
    // The batch that reaches the 150th record waits inside its activity: the kill lands there.
    const release = await holdItemSlot(prisma, campaign.id, records[149]!);
    let child: ChildProcess | undefined;
    try {
      child = await startWorkerProcess(queue);
      // The killed worker's batch is retried once its start-to-close timeout has passed: 10 s instead of 30, due
      // about when the restarted worker polls (with 3 s a busy machine once never reached the held record).
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
        duration: '1 second',
        snapshotBatch: 20,
        snapshotBatchesPerRun: 3,
        snapshotBatchTimeout: '10 seconds',
      });
      // Another test's transaction may be waiting too: the snapshot is at the held record once its first 140
      // items are stored and a transaction waits.
      const stored = () => prisma.accessReviewItem.count({ where: { campaignId: campaign.id } });
      // A deadline, not a speed check: at load 15 the snapshot once took longer than 90 s to reach the record.
      await until(
        async () => (await stored()) >= 140 && (await someoneWaits(prisma, 'transactionid')),
        'the snapshot batch at the held record',
        240_000,
      ).catch(async (err: unknown) => {
        const { raw } = await env.client.workflow.getHandle(workflowId).describe();
        const pending = (raw.pendingActivities ?? []).map(
          (a) => `${a.activityType?.name} attempt ${a.attempt} (${a.lastFailure?.message ?? 'no failure'})`,
        );
        throw new Error(
          `${String(err)}: ${await stored()} items stored; pending: ${pending.join(', ') || 'nothing'}; ` +
            `worker ${child?.exitCode === null ? 'running' : `exited ${child?.exitCode}`}; ` +
            `database: ${await busyStatements(prisma)}`,
        );
      });
      expect(await stored()).toBeLessThan(300);
      await killWorkerProcess(child);
      await release();
      const summary = await workerUntil(queue, () => resultOf(workflowId));
      expect(summary).toMatchObject({ status: 'CLOSED', itemsTotal: 300, kept: 300 });
      const items = await itemsOf(prisma, campaign.id);
      expect(items.map((i) => i.accessId)).toEqual(records.map((r) => r.id));
      expect((await campaignRow(prisma, campaign.id)).itemsTotal).toBe(300);
    } finally {
      if (child) await killWorkerProcess(child);
      await release();
    }
  }, 480_000);

  it('during the removals: once a worker runs again every removal is done once, each person mailed once', async () => {
    const queue = uniqueQueue('access-review-kill-removals');
    const roles = [1, 2].map((i) => tag(`Kill removal ${i} `));
    const people = await peopleWith(prisma, 12, roles, 'killrem');
    const records = await prisma.userAccess.findMany({ where: { portalUserId: { in: people.map((p) => p.id) } } });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: roles }, defaultDecision: 'REMOVE' });
    const held = people[7]!;
    const release = await holdUserLock(prisma, held.id);
    let child: ChildProcess | undefined;
    try {
      child = await startWorkerProcess(queue);
      // The killed worker's batch is retried once its heartbeat timeout has passed: 10 s instead of 30.
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
        duration: '1 second',
        removalBatch: 6,
        removalHeartbeatTimeout: '10 seconds',
      });
      await until(() => userLockWaits(prisma, held.id), 'the removal at the held person', 90_000);
      const done = await prisma.accessReviewItem.count({ where: { campaignId: campaign.id, outcome: 'REMOVED' } });
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(24);
      await killWorkerProcess(child);
      await release();
      const summary = await workerUntil(queue, () => resultOf(workflowId));
      expect(summary).toMatchObject({ status: 'CLOSED', itemsTotal: 24, removed: 24, kept: 0, failed: 0 });
      await removedOnce(
        people.map((p) => p.id),
        records.map((r) => r.id),
      );
      for (const p of people) {
        await until(async () => (await mailsTo(p.email, 'your access was removed')).length > 0, `${p.username} mailed`);
        expect(await mailsTo(p.email, 'your access was removed')).toHaveLength(1);
      }
    } finally {
      if (child) await killWorkerProcess(child);
      await release();
    }
  }, 240_000);
});

describe('PostgreSQL stopped during the removals', () => {
  it('the campaign waits, retrying its removal batch, and finishes once PostgreSQL is back', async () => {
    const queue = uniqueQueue('access-review-db-down');
    const role = tag('Db down ');
    const people = await peopleWith(prisma, 6, [role], 'dbdown');
    const records = await prisma.userAccess.findMany({ where: { portalUserId: { in: people.map((p) => p.id) } } });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, defaultDecision: 'REMOVE' });
    const db = await openDatabaseBehindProxy(stackEnv().DATABASE_URL!);
    const held = people[2]!;
    const release = await holdUserLock(prisma, held.id);
    try {
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
        duration: '1 second',
        removalBatch: 2,
      });
      const handle = env.client.workflow.getHandle(workflowId);
      const summary = await workerUntil(
        queue,
        async () => {
          await until(() => userLockWaits(prisma, held.id), 'the removal at the held person', 60_000);
          db.proxy.refuse();
          await release();
          // The batch fails while PostgreSQL is away, and is retried (not given up).
          await until(
            async () => ((await pendingActivity(handle, 'applyAccessReviewRemovals'))?.attempt ?? 0) >= 3,
            'the removal batch retried',
            60_000,
          );
          expect((await campaignRow(prisma, campaign.id)).status).toBe('CLOSING');
          expect(await prisma.userAccess.count({ where: { portalUserId: held.id, inactive: false } })).toBe(1);
          db.proxy.heal();
          return resultOf(workflowId);
        },
        db.prisma,
      );
      expect(summary).toMatchObject({ status: 'CLOSED', removed: 6, failed: 0 });
      await removedOnce(
        people.map((p) => p.id),
        records.map((r) => r.id),
      );
      await maybeRecordHistory({ client: env.client }, workflowId, 'access-review', 'removals-waited-for-database');
    } finally {
      await release();
      await db.close();
    }
  }, 180_000);
});

describe('SMTP down past the mail deadline', () => {
  it('audits the invitation and the removal mail MAIL_FAILED, and the campaign still closes', async () => {
    const queue = uniqueQueue('access-review-smtp-down');
    const role = tag('Smtp down ');
    const lao = tag('LAO');
    const staff = await person(prisma, 'smtpstaff');
    await grant(prisma, staff, 'LAO Staff', { laoIds: [lao] });
    const subject = await person(prisma, 'smtpsubject');
    const r = await grant(prisma, subject, role, { laoIds: [lao] });
    const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, defaultDecision: 'REMOVE' });
    const worker = await newWorker(env, prisma, queue, {
      mail: { ...testMailSettings(), smtpUrl: 'smtp://127.0.0.1:9' },
    });
    const workflowId = await startCampaign(prisma, env.client, queue, campaign, {
      duration: '1 second',
      mailDeadline: '1 second',
    });
    const summary = await worker.runUntil(resultOf(workflowId));
    expect(summary).toMatchObject({ status: 'CLOSED', removed: 1, mailsFailed: 2 });
    expect((await campaignRow(prisma, campaign.id)).status).toBe('CLOSED');
    expect(await prisma.userAccess.count({ where: { id: r.id, inactive: false } })).toBe(0);
    const [failedRemovalMail] = await accessAudit(prisma, subject.id, 'MAIL_FAILED');
    expect(failedRemovalMail).toMatchObject({ workflowId });
    expect(failedRemovalMail!.after).toMatchObject({ campaignId: campaign.id, to: subject.email });
    const invitation = await prisma.auditEvent.findMany({
      where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'MAIL_FAILED' },
    });
    expect(invitation.map((a) => a.after)).toEqual([expect.objectContaining({ kind: 'invite', userId: staff.id })]);
    expect(await mailsTo(subject.email, 'your access was removed')).toHaveLength(0);
    await maybeRecordHistory({ client: env.client }, workflowId, 'access-review', 'mail-failed');
  }, 120_000);
});

describe('an address the SMTP server refuses for good', () => {
  it('is audited MAIL_FAILED at once and holds no other reviewer or removed person back', async () => {
    const refused = new Set<string>();
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, done) {
        if (refused.has(address.address.toLowerCase())) {
          return done(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
        }
        return done();
      },
      onData(stream, session, done) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          received.push(...session.envelope.rcptTo.map((r) => r.address.toLowerCase()));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const queue = uniqueQueue('access-review-smtp-refused');
      const role = tag('Refused ');
      const lao = tag('LAO');
      const [staffA, staffB] = [await person(prisma, 'refstaffa'), await person(prisma, 'refstaffb')];
      for (const s of [staffA, staffB]) await grant(prisma, s, 'LAO Staff', { laoIds: [lao] });
      const [gone, kept] = [await person(prisma, 'refgone'), await person(prisma, 'refother')];
      for (const p of [gone, kept]) await grant(prisma, p, role, { laoIds: [lao] });
      // The first reviewer and the first removed person (in id order) are refused.
      refused.add(staffA.email.toLowerCase());
      refused.add(gone.email.toLowerCase());
      const campaign = await fileCampaign(prisma, { scope: { roleNames: [role] }, defaultDecision: 'REMOVE' });
      const { port } = smtp.server.address() as AddressInfo;
      const worker = await newWorker(env, prisma, queue, {
        mail: { ...testMailSettings(), smtpUrl: `smtp://127.0.0.1:${port}` },
      });
      const workflowId = await startCampaign(prisma, env.client, queue, campaign, { duration: '1 second' });
      const summary = await worker.runUntil(resultOf(workflowId));
      expect(summary).toMatchObject({ status: 'CLOSED', removed: 2, mailsFailed: 2 });
      expect(received.sort()).toEqual([staffB.email, kept.email].map((e) => e.toLowerCase()).sort());
      expect(await accessAudit(prisma, gone.id, 'MAIL_FAILED')).toHaveLength(1);
      const invitation = await prisma.auditEvent.findMany({
        where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'MAIL_FAILED' },
      });
      expect(invitation.map((a) => a.after)).toEqual([expect.objectContaining({ kind: 'invite', userId: staffA.id })]);
    } finally {
      await new Promise<void>((resolve) => smtp.close(resolve));
    }
  }, 120_000);
});
