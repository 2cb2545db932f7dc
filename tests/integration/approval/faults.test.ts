/**
 * Approval stages when their dependencies fail, for longer than their deadlines (docs/decisions.md "Approval
 * policies"; REQUEST-LIFECYCLE rule 5 and rule 2): the worker reaches MailDev or PostgreSQL through a fault proxy
 * (tests/support/fault-proxy.ts) that refuses or freezes. A mail server frozen past the mail deadline holds no
 * stage back and fails no request; PostgreSQL away during a stage decision answers SAVE_FAILED with nothing
 * written, and the same decision commits once it is back.
 */
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { decideStageUpdate, reviewUpdate, stateQuery } from '@portal/workflows';
import { withDatabaseBehindProxy } from '../../support/database-fault';
import { FAULTS, faultName, proxyFor } from '../../support/fault-proxy';
import { stackEnv, testMailSettings } from '../fixtures';
import {
  type TemporalTestEnv,
  auditActions,
  failureType,
  fileAccessRequest,
  newWorker,
  review,
  uniqueQueue,
  until,
  useLifecycleStack,
} from '../lifecycle/support';
import { decide, policyRig, stage } from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

describe('approval stages with their dependencies failing', () => {
  it('the mail server frozen past the mail deadline: the stage opens, is decided and the request resolves', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5)]);
    const { proxy, url } = await proxyFor(testMailSettings().smtpUrl);
    const taskQueue = uniqueQueue('approval-mail-frozen');
    try {
      proxy.hang();
      const worker = await newWorker(env, prisma, taskQueue, { mail: { ...testMailSettings(), smtpUrl: url } });
      await worker.runUntil(async () => {
        const filed = await fileAccessRequest(env, prisma, taskQueue, {
          block: rig.block,
          notificationDeadline: '3 seconds',
        });
        const handle = env.client.workflow.getHandle(filed.workflowId);
        await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
        // The stage's mail hangs in the background; the decision does not wait for it.
        const decided = await handle.executeUpdate(decideStageUpdate, {
          args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0 })],
        });
        expect(decided.approval).toMatchObject({ stage: null });
        await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })] });
        expect(await handle.result()).toMatchObject({ status: 'REJECTED' });
        expect((await handle.describe()).status.name).toBe('COMPLETED');
        const stageMail = await prisma.outboundMail.findUnique({
          where: { key: `${filed.workflowId}:stage-1:OPENED:${rig.laoStaff.userId}` },
        });
        expect(stageMail?.status).not.toBe('SENT');
        expect(await auditActions(prisma, filed.workflowId)).toEqual(
          expect.arrayContaining([
            'APPROVAL_STAGE_OPENED',
            'APPROVAL_STAGE_APPROVED',
            'STATUS_REJECTED',
            'MAIL_FAILED',
          ]),
        );
        // Thawed before the worker stops: the attempts given up still wait on the frozen greeting, one recipient
        // after another (every LAO staff member of MA036 the other files made), and the worker waits for them.
        proxy.heal();
      });
    } finally {
      proxy.heal();
      await proxy.close();
    }
  });

  for (const fault of FAULTS) {
    it(`PostgreSQL ${faultName(fault)} during a stage decision: SAVE_FAILED, nothing written; back, it commits`, async () => {
      const rig = await policyRig(prisma, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
      await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma: workerPrisma }) => {
        const taskQueue = uniqueQueue(`approval-db-${fault}`);
        const worker = await newWorker(env, workerPrisma, taskQueue);
        await worker.runUntil(async () => {
          const filed = await fileAccessRequest(env, prisma, taskQueue, {
            block: rig.block,
            writeDeadline: '4 seconds',
            writeAttemptTimeout: '2 seconds',
          });
          const handle = env.client.workflow.getHandle(filed.workflowId);
          await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
          proxy.fail(fault);
          const attempt = decide(rig.laoStaff, { stage: 1, expectedVersion: 0, comment: 'confirmed' });
          expect(await failureType(handle.executeUpdate(decideStageUpdate, { args: [attempt] }))).toBe('SAVE_FAILED');
          proxy.heal();
          // Nothing of the decision was written: the stage is open, the request at version 0.
          const [open] = await prisma.accessRequestStage.findMany({ where: { requestId: filed.id, stage: 1 } });
          expect(open).toMatchObject({ state: 'OPEN', decidedAt: null });
          expect((await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).versionno).toBe(0);
          expect(await handle.query(stateQuery)).toMatchObject({ version: 0, busy: false, approval: { stage: 1 } });

          const again = await handle.executeUpdate(decideStageUpdate, { args: [attempt] });
          expect(again).toMatchObject({ version: 1, approval: { stage: 2, group: 'STUDY_APPROVERS' } });
          const actions = await auditActions(prisma, filed.workflowId);
          expect(actions.filter((a) => a === 'APPROVAL_STAGE_APPROVED')).toHaveLength(1);
          await handle.executeUpdate(reviewUpdate, {
            args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })],
          });
          await handle.result();
        });
      });
    });
  }
});
