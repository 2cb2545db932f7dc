/**
 * A worker process killed (kill -9) while a stage decision's commit runs (docs/decisions.md "Approval
 * policies"; REQUEST-LIFECYCLE rule 2): the test holds the request's row, so the killed worker's commit waits on
 * it inside its transaction; the transaction dies with the process, and the decision is retried once its
 * attempt's start-to-close timeout has passed, on a worker started after it. It commits once: one decision row,
 * one audit row, the next stage opened once.
 */
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { decideStageUpdate, reviewUpdate, stateQuery } from '@portal/workflows';
import { holdTransaction } from '../../support/held-transaction';
import {
  type TemporalTestEnv,
  auditActions,
  fileAccessRequest,
  newWorker,
  review,
  uniqueQueue,
  until,
  useLifecycleStack,
} from '../lifecycle/support';
import { startWorkerProcess } from '../worker-process';
import { decide, policyRig, stage } from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

/** True when some session waits for a row lock of the request (the commit's SELECT … FOR UPDATE). */
async function requestRowWaits(): Promise<boolean> {
  const [row] = await prisma.$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE wait_event_type = 'Lock' AND query LIKE '%FROM "AccessModRequest"%FOR UPDATE%'`;
  return row.n > 0;
}

describe('a worker killed during a stage decision', () => {
  it('commits the decision once, on a worker started after the kill', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const taskQueue = uniqueQueue('approval-kill');
    // The killed worker's attempt is retried after 10 s instead of 30: well above a healthy commit on a busy machine.
    const filed = await fileAccessRequest(env, prisma, taskQueue, {
      block: rig.block,
      writeAttemptTimeout: '10 seconds',
    });
    const handle = env.client.workflow.getHandle(filed.workflowId);
    const opener = await newWorker(env, prisma, taskQueue);
    await opener.runUntil(() =>
      until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened'),
    );

    const release = await holdTransaction(
      prisma,
      (t) => t.$queryRaw`SELECT "id" FROM "AccessModRequest" WHERE "id" = ${filed.id} FOR UPDATE`,
    );
    const child = await startWorkerProcess(taskQueue);
    try {
      const decision = handle.executeUpdate(decideStageUpdate, {
        args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0, comment: 'confirmed' })],
      });
      await until(requestRowWaits, 'the stage commit waiting on the request row', 60_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await release();
      expect((await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).versionno).toBe(0);

      const worker = await newWorker(env, prisma, taskQueue);
      await worker.runUntil(async () => {
        const state = await decision;
        expect(state).toMatchObject({ version: 1, approval: { stage: 2, group: 'STUDY_APPROVERS' } });
        await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })] });
        await handle.result();
      });
      const actions = await auditActions(prisma, filed.workflowId);
      expect(actions.filter((a) => a === 'APPROVAL_STAGE_APPROVED')).toHaveLength(1);
      expect(actions.filter((a) => a === 'APPROVAL_STAGE_OPENED')).toHaveLength(2);
      const rows = await prisma.accessRequestStage.findMany({
        where: { requestId: filed.id },
        orderBy: { stage: 'asc' },
      });
      expect(rows.map((r) => [r.state, r.decidedBy])).toEqual([
        ['APPROVED', rig.laoStaff.username],
        ['CLOSED', null],
      ]);
    } finally {
      await release();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
