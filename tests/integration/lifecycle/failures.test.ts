/**
 * The lifecycle with one dependency failing at a time (issue 7, REQUEST-LIFECYCLE rules 2, 4, 5): PostgreSQL
 * stopped or frozen during an approving save's commit (within the write deadline), a commit whose completion is
 * lost, a worker killed (kill -9) while the commit runs, and a mail server that stays down longer than the
 * mail's deadline; and (issue 21)
 * PostgreSQL away past the write deadline, shortened through the workflow's input: the worker reaches it
 * through a fault proxy (tests/support/fault-proxy.ts) that refuses connections (the database stopped) or
 * forwards nothing (the database frozen), while the test's own reads go to PostgreSQL directly.
 */
import { describe, expect, it } from 'vitest';
import { NativeConnection } from '@temporalio/worker';
import type { PrismaClient } from '@portal/db';
import { type CommitSaveInput, reviewUpdate, stateQuery } from '@portal/workflows';
import { createActivities } from '@portal/worker';
import { withDatabaseBehindProxy } from '../../support/database-fault';
import { FAULTS, faultName, startFaultProxy } from '../../support/fault-proxy';
import { holdUserLock, userLockWaits } from '../../support/filing-locks';
import { pendingActivity } from '../../support/pending-activity';
import { stackEnv, testMailSettings } from '../fixtures';
import { startWorkerProcess } from '../worker-process';
import {
  type TemporalTestEnv,
  appliedPayload,
  auditActions,
  REVIEWER,
  failureType,
  fileAccessRequest,
  maybeRecordHistory,
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

describe('request lifecycle: failure paths', () => {
  // The commit's attempts meet a database that is away (well within the write deadline) and roll back.
  for (const fault of FAULTS) {
    it(`writes nothing while the database is ${faultName(fault)} during an approval's commit, then writes once`, async () => {
      await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma: workerPrisma }) => {
        const taskQueue = uniqueQueue(`lifecycle-commit-${fault}`);
        const worker = await newWorker(env, workerPrisma, taskQueue);
        await worker.runUntil(async () => {
          const filed = await fileAccessRequest(env, prisma, taskQueue);
          const handle = env.client.workflow.getHandle(filed.workflowId);
          const payload = await appliedPayload(prisma, filed);
          proxy.fail(fault);
          const approval = handle.executeUpdate(reviewUpdate, {
            args: [review({ requestStatus: 'APPROVED', payload })],
          });
          approval.catch(() => undefined);
          // Stopped: two attempts failed. Frozen: the attempt waits on the database (it would fail only at its
          // 30-second start-to-close timeout); its writes are held in the frozen database.
          await until(
            async () =>
              fault === 'refuse'
                ? ((await pendingActivity(handle, 'commitSave'))?.attempt ?? 0) >= 3
                : proxy.held() > 0 && (await pendingActivity(handle, 'commitSave')) !== undefined,
            fault === 'refuse' ? 'two failed commit attempts' : 'the commit waiting on the frozen database',
          );
          // The access the reviewer applied and the audit row are not written while the database is away.
          expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
            requestStatus: 'NEW',
            versionno: 0,
          });
          expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(0);
          expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED']);

          proxy.heal();
          expect(await approval).toMatchObject({ status: 'APPROVED', version: 1 });
          expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(1);
          const actions = await auditActions(prisma, filed.workflowId);
          expect(actions.slice(0, 3)).toEqual(['CREATED', 'ACCESS_UPDATED', 'STATUS_APPROVED']);
          expect(actions.filter((a) => a === 'ACCESS_UPDATED' || a === 'STATUS_APPROVED')).toHaveLength(2);
          await handle.result();
        });
      });
    });
  }

  it('approves a removal of a role the user no longer holds once, when the commit is retried after a lost completion', async () => {
    const taskQueue = uniqueQueue('lifecycle-lost-completion');
    const real = createActivities(prisma, testMailSettings());
    let attempts = 0;
    const worker = await newWorker(env, prisma, taskQueue, {
      overrides: {
        // The first attempt commits, then its completion is lost (as when the worker dies right after).
        commitSave: async (input: CommitSaveInput) => {
          attempts += 1;
          const result = await real.commitSave(input);
          if (attempts === 1) throw new Error('injected: completion lost after the commit');
          return result;
        },
      },
    });
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { requestType: 'REMOVAL' });
      // The role goes away before the approval: the removal changes no access row.
      await prisma.userAccess.updateMany({
        where: { portalUserId: filed.subjectId, roleName: filed.roleName },
        data: { inactive: true },
      });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      // 'Apply Above Changes' of the removal: there is nothing left to remove, so only the request row changes.
      const payload = await appliedPayload(prisma, filed);
      const state = await handle.executeUpdate(reviewUpdate, {
        args: [review({ requestStatus: 'APPROVED', payload })],
      });
      expect(state).toMatchObject({ status: 'APPROVED', version: 1 });
      expect(attempts).toBe(2);
      expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(0);
      const actions = await auditActions(prisma, filed.workflowId);
      expect(actions.filter((a) => a === 'ACCESS_UPDATED')).toHaveLength(0);
      expect(actions.filter((a) => a === 'STATUS_APPROVED')).toHaveLength(1);
      await handle.result();
    });
  });

  it('finishes an approval whose worker was killed while the commit ran, once, on a restarted worker', async () => {
    const taskQueue = uniqueQueue('lifecycle-kill');
    // The killed worker's commit is retried once its attempt's start-to-close timeout has passed: 10 s instead
    // of 30, still well above a healthy commit's time on a busy machine.
    const filed = await fileAccessRequest(env, prisma, taskQueue, { writeAttemptTimeout: '10 seconds' });
    // Hold the subject's access lock: the killed worker's commit waits on it inside its transaction.
    const release = await holdUserLock(prisma, filed.subjectId);
    const child = await startWorkerProcess(taskQueue);
    try {
      const handle = env.client.workflow.getHandle(filed.workflowId);
      const payload = await appliedPayload(prisma, filed);
      const approval = handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'APPROVED', payload })] });
      await until(() => userLockWaits(prisma, filed.subjectId), 'the commit waiting on the access lock', 60_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await release();
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'NEW',
      });

      // The activity is retried after its attempt's start-to-close timeout, on the new worker.
      const worker = await newWorker(env, prisma, taskQueue);
      const state = await worker.runUntil(approval);
      expect(state).toMatchObject({ status: 'APPROVED', version: 1 });
      expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(1);
      const actions = await auditActions(prisma, filed.workflowId);
      expect(actions.filter((a) => a === 'STATUS_APPROVED')).toHaveLength(1);
      expect(actions.filter((a) => a === 'ACCESS_UPDATED')).toHaveLength(1);
    } finally {
      await release();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('keeps the request resolved and the workflow completed when the mail server stays down, auditing MAIL_FAILED', async () => {
    const taskQueue = uniqueQueue('lifecycle-mail-down');
    const worker = await newWorker(env, prisma, taskQueue, {
      mail: { ...testMailSettings(), smtpUrl: 'smtp://127.0.0.1:9' },
    });
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { notificationDeadline: '1 second' });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
      expect((await handle.result()).status).toBe('REJECTED');
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'REJECTED',
      });
      expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_FAILED']);
      await maybeRecordHistory(env, filed.workflowId, 'access-change', 'mail-failed');
    });
  });
});

describe('the database away past the write deadline', () => {
  // Case 7: the MAIL_FAILED bookkeeping ran with the write options and no catch of its own, so an outage
  // outlasting its deadline failed a workflow whose request was already resolved.
  for (const fault of FAULTS) {
    it(`completes a resolved request whose MAIL_FAILED bookkeeping cannot be written (database ${faultName(fault)})`, async () => {
      await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma: workerPrisma }) => {
        const taskQueue = uniqueQueue(`lifecycle-bookkeeping-${fault}`);
        const worker = await newWorker(env, workerPrisma, taskQueue, {
          mail: { ...testMailSettings(), smtpUrl: 'smtp://127.0.0.1:9' },
        });
        await worker.runUntil(async () => {
          const filed = await fileAccessRequest(env, prisma, taskQueue, {
            notificationDeadline: '2 seconds',
            writeDeadline: '4 seconds',
          });
          const handle = env.client.workflow.getHandle(filed.workflowId);
          await handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
          // The rejection is committed; the mail then gives up (no SMTP server) and its bookkeeping meets a
          // database that stays away for longer than the write deadline.
          proxy.fail(fault);
          const result = await handle.result().finally(() => proxy.heal());
          expect(result.status).toBe('REJECTED');
          expect((await handle.describe()).status.name).toBe('COMPLETED');
          expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
            requestStatus: 'REJECTED',
          });
          // A write held while frozen may still land once the database is back (the held bytes are
          // forwarded): at most one MAIL_FAILED after the resolution, nothing else.
          const actions = await auditActions(prisma, filed.workflowId);
          expect(actions.slice(0, 2)).toEqual(['CREATED', 'STATUS_REJECTED']);
          expect([[], ['MAIL_FAILED']]).toContainEqual(actions.slice(2));
        });
      });
    });
  }
});

describe('the database away past the write deadline during a commit', () => {
  // The save is answered SAVE_FAILED (503) while the database is away; once it is back the workflow reads the
  // save's key (a frozen database may still commit the held write), agrees with the row, and the request can
  // be finished.
  for (const fault of FAULTS) {
    it(`tells SAVE_FAILED, then agrees with the database and finishes (database ${faultName(fault)})`, async () => {
      await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma: workerPrisma }) => {
        const taskQueue = uniqueQueue(`lifecycle-commit-db-${fault}`);
        const worker = await newWorker(env, workerPrisma, taskQueue);
        await worker.runUntil(async () => {
          const filed = await fileAccessRequest(env, prisma, taskQueue, { writeDeadline: '4 seconds' });
          const handle = env.client.workflow.getHandle(filed.workflowId);
          const payload = await appliedPayload(prisma, filed);
          proxy.fail(fault);
          const approve = () =>
            handle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'APPROVED', payload })] });
          expect(await failureType(approve())).toBe('SAVE_FAILED');
          proxy.heal();
          // The workflow and the row agree again, whichever way the held write went.
          let row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } });
          await until(
            async () => {
              row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } });
              const state = await handle.query(stateQuery);
              return !state.busy && state.version === row.versionno && state.status === row.requestStatus;
            },
            'the workflow agreeing with the request row',
            60_000,
          );
          if (row.requestStatus !== 'APPROVED') {
            expect(row).toMatchObject({ requestStatus: 'NEW', versionno: 0 });
            // The reviewer saves again. A connection the freeze held may still hold the row's lock for a moment
            // after the heal, so that save can be told SAVE_FAILED too (once, in a full run): the reviewer then
            // saves once more, as the message asks. Never saved twice: one STATUS_APPROVED and one record below.
            let outcome: string | undefined = 'SAVE_FAILED';
            await until(
              async () => (outcome = await failureType(approve())) !== 'SAVE_FAILED',
              'a save after the heal that is not SAVE_FAILED',
              60_000,
            );
            expect(outcome).toBeUndefined();
          }
          expect(await handle.result()).toMatchObject({ status: 'APPROVED', version: 1 });
          const actions = await auditActions(prisma, filed.workflowId);
          expect(actions.filter((a) => a === 'STATUS_APPROVED')).toHaveLength(1);
          expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(1);
          if (fault === 'refuse') await maybeRecordHistory(env, filed.workflowId, 'access-change', 'commit-unsettled');
        });
      });
    });
  }
});

describe('a commit that committed, then timed out (case 1)', () => {
  // The commit's attempt 1 commits while its worker cannot reach Temporal past the write deadline: the
  // workflow used to answer SAVE_FAILED and keep the old version, so the resolved request never mailed and
  // never completed, and every later save was refused as stale.
  it('takes the committed save as its own when the worker could not report it within the deadline', async () => {
    const temporal = new URL(`http://${stackEnv().TEMPORAL_ADDRESS!}`);
    const proxy = await startFaultProxy({ host: temporal.hostname, port: Number(temporal.port) });
    const native = await NativeConnection.connect({ address: `127.0.0.1:${proxy.port}` });
    const taskQueue = uniqueQueue('lifecycle-commit-timeout');
    const filed = await fileAccessRequest(env, prisma, taskQueue, { writeDeadline: '5 seconds' });
    // Hold the subject's access lock so the commit is known to be running when Temporal goes away.
    const release = await holdUserLock(prisma, filed.subjectId);
    try {
      const worker = await newWorker({ ...env, native }, prisma, taskQueue);
      await worker.runUntil(async () => {
        const handle = env.client.workflow.getHandle(filed.workflowId);
        const payload = await appliedPayload(prisma, filed);
        const approval = handle.executeUpdate(reviewUpdate, {
          args: [review({ requestStatus: 'APPROVED', payload })],
        });
        approval.catch(() => undefined);
        await until(() => userLockWaits(prisma, filed.subjectId), 'the commit waiting on the access lock', 30_000);
        proxy.hang();
        await release();
        await until(
          async () => (await auditActions(prisma, filed.workflowId)).includes('STATUS_APPROVED'),
          'the approval committed in the database',
        );
        await until(
          async () => (await handle.fetchHistory()).events?.some((e) => e.activityTaskTimedOutEventAttributes) ?? false,
          'the commit activity timed out',
          30_000,
        );
        proxy.heal();
        await expect(approval).resolves.toMatchObject({ status: 'APPROVED', version: 1 });
        // The worker's pollers went through the frozen hop: a long poll in flight when it froze ends only at
        // its own timeout, so the resolution mail's activity may wait that long before it is picked up.
        await until(
          async () => (await handle.describe()).status.name === 'COMPLETED',
          'the resolved workflow completed',
          150_000,
        );
        expect(await handle.result()).toMatchObject({ status: 'APPROVED', version: 1, lastModifiedBy: 'reviewer' });
        const actions = await auditActions(prisma, filed.workflowId);
        expect(actions.filter((a) => a === 'STATUS_APPROVED')).toHaveLength(1);
        expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(1);
        await maybeRecordHistory(env, filed.workflowId, 'access-change', 'commit-read-back');
      });
    } finally {
      await release();
      proxy.heal();
      await native.close();
      await proxy.close();
    }
  }, 360_000);

  // The key `<workflowId>:<version>` used to answer COMMITTED to any save reusing it, whatever it held: a
  // second reviewer's different save was told "saved" and nothing was written.
  it('answers a retried save as committed and refuses a different save under the same key as superseded', async () => {
    const filed = await fileAccessRequest(env, prisma, uniqueQueue('lifecycle-key-digest'));
    const { commitSave } = createActivities(prisma, testMailSettings());
    try {
      const save: CommitSaveInput = {
        kind: 'ACCESS_CHANGE',
        requestId: filed.id,
        workflowId: filed.workflowId,
        version: 1,
        fromStatus: 'NEW',
        toStatus: 'IN_PROGRESS',
        reviewerComments: 'first reviewer',
        sysaidTicket: '',
        actor: REVIEWER,
      };
      expect(await commitSave(save)).toMatchObject({ outcome: 'COMMITTED' });
      expect(await commitSave(save)).toMatchObject({ outcome: 'COMMITTED' });
      const other = { ...save, toStatus: 'REJECTED', reviewerComments: 'second reviewer' };
      expect(await commitSave(other)).toMatchObject({
        outcome: 'SUPERSEDED',
        committed: {
          version: 1,
          status: 'IN_PROGRESS',
          reviewerComments: 'first reviewer',
          lastModifiedBy: 'reviewer',
        },
      });
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'IN_PROGRESS',
        reviewerComments: 'first reviewer',
        versionno: 1,
      });
      // Resolved, so no open request of this user's role is left to the other test files (one per study role).
      const rejected = { ...save, version: 2, fromStatus: 'IN_PROGRESS', toStatus: 'REJECTED', reviewerComments: '' };
      expect(await commitSave(rejected)).toMatchObject({ outcome: 'COMMITTED' });
    } finally {
      await env.client.workflow.getHandle(filed.workflowId).terminate('test over');
    }
  });
});
