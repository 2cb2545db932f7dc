/**
 * Approval stages on a real Temporal dev server with the worker in-process and the activities writing the real
 * PostgreSQL (docs/decisions.md "Approval policies"): requests filed through the API's route under a policy of
 * their own study role; two- and three-stage reviews (stages, then User Support's save), a rejection at each
 * stage, a deadline passing (the working day shrunk through the API's APPROVAL_WORKING_DAY) with its reminder
 * and escalation, the override, who may decide, a worker killed between stages, a policy changed after filing.
 * Each main path's history is recorded for replay with RECORD_HISTORIES=1.
 */
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { ApprovalStageKey, type LifecycleState, decideStageUpdate, reviewUpdate, stateQuery } from '@portal/workflows';
import {
  REVIEWER,
  type TemporalTestEnv,
  appliedPayload,
  auditActions,
  failureType,
  fileAccessRequest,
  maybeRecordHistory,
  newWorker,
  review,
  uniqueQueue,
  until,
  useLifecycleStack,
} from '../lifecycle/support';
import { decide, policyRig, stage } from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;
const taskQueue = uniqueQueue('approval-stages');

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

const stagesOf = (requestId: number) =>
  prisma.accessRequestStage.findMany({ where: { requestId }, orderBy: { stage: 'asc' } });

describe('approval stages', () => {
  it('three stages: LAO staff, then study approvers, then User Support saves Approved', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5, 2), stage('STUDY_APPROVERS', 3)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      const row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } });
      expect(row.approvalPlan).toMatchObject({
        laoIds: ['MA036'],
        stages: [{ approvers: 'LAO_STAFF', policyIds: [rig.policyId] }, { approvers: 'STUDY_APPROVERS' }],
      });
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      const opened = (await handle.query(stateQuery)).approval!;
      expect(opened).toMatchObject({ stages: 2, stage: 1, group: 'LAO_STAFF', escalated: false });
      // Five working days away, the reminder two before it (calendar working days: no APPROVAL_WORKING_DAY).
      expect(Date.parse(opened.deadlineAt!) - Date.now()).toBeGreaterThan(4 * 86_400_000);
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        approvalStage: 1,
        approvalGroup: 'LAO_STAFF',
      });
      const desc = await handle.describe();
      expect(desc.typedSearchAttributes.get(ApprovalStageKey)).toBe('1:LAO_STAFF');

      // The User Support reviewer cannot approve over the open stages without a justification.
      expect(
        await failureType(
          handle.executeUpdate(reviewUpdate, {
            args: [review({ requestStatus: 'APPROVED', payload: await appliedPayload(prisma, filed) })],
          }),
        ),
      ).toBe('APPROVAL_STAGES_OPEN');
      // IN_PROGRESS does not move the stages.
      const s1 = await handle.executeUpdate(reviewUpdate, { args: [review({ sysaidTicket: 'T-7' })] });
      expect(s1).toMatchObject({ status: 'IN_PROGRESS', version: 1, approval: { stage: 1 } });

      const a1 = await handle.executeUpdate(decideStageUpdate, {
        args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 1, comment: 'Site confirmed' })],
      });
      expect(a1).toMatchObject({ status: 'IN_PROGRESS', version: 2, approval: { stage: 2, group: 'STUDY_APPROVERS' } });
      // The study approver is not LAO staff: a decision of stage 1 again is refused; stage 2 is theirs.
      expect(
        await failureType(
          handle.executeUpdate(decideStageUpdate, {
            args: [decide(rig.studyApprover, { stage: 1, expectedVersion: 2 })],
          }),
        ),
      ).toBe('APPROVAL_STAGE_NOT_OPEN');
      const a2 = await handle.executeUpdate(decideStageUpdate, {
        args: [decide(rig.studyApprover, { stage: 2, expectedVersion: 2 })],
      });
      expect(a2.approval).toMatchObject({ stage: null, group: null });
      expect((await handle.describe()).typedSearchAttributes.get(ApprovalStageKey)).toBeUndefined();

      const done = await handle.executeUpdate(reviewUpdate, {
        args: [
          review({
            expectedVersion: 3,
            requestStatus: 'APPROVED',
            sysaidTicket: 'T-7',
            payload: await appliedPayload(prisma, filed),
          }),
        ],
      });
      expect(done).toMatchObject({ status: 'APPROVED', version: 4 });
      const rows = await stagesOf(filed.id);
      expect(rows.map((r) => [r.state, r.decidedBy, r.comment])).toEqual([
        ['APPROVED', rig.laoStaff.username, 'Site confirmed'],
        ['APPROVED', rig.studyApprover.username, null],
      ]);
      expect(
        await prisma.userAccess.count({
          where: { portalUserId: filed.subjectId, roleName: rig.block.roleName, inactive: false },
        }),
      ).toBe(1);
      const actions = await auditActions(prisma, filed.workflowId);
      expect(actions).toEqual(
        expect.arrayContaining(['CREATED', 'APPROVAL_STAGE_OPENED', 'APPROVAL_STAGE_APPROVED', 'STATUS_APPROVED']),
      );
      expect(actions.filter((a) => a === 'APPROVAL_STAGE_OPENED')).toHaveLength(2);
      // The stage approvers were mailed when their stage opened.
      await until(
        async () =>
          (await prisma.outboundMail.count({
            where: {
              key: {
                in: [
                  `${filed.workflowId}:stage-1:OPENED:${rig.laoStaff.userId}`,
                  `${filed.workflowId}:stage-2:OPENED:${rig.studyApprover.userId}`,
                ],
              },
              status: 'SENT',
            },
          })) === 2,
        'the stage mails sent',
      );
      await handle.result();
      await maybeRecordHistory(env, filed.workflowId, 'approval', 'three-stages-approved');
    });
  });

  it('a rejection at stage 1 rejects the request, tells the requester why and closes the later stage', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      // Nobody decides a request they filed; LAO staff of another LAO are refused by the commit.
      const self = { userId: filed.subjectId, username: 'self', permissions: ['USER'] };
      expect(
        await failureType(
          handle.executeUpdate(decideStageUpdate, { args: [decide(self, { stage: 1, expectedVersion: 0 })] }),
        ),
      ).toBe('PERMISSION_DENIED');
      expect(
        await failureType(
          handle.executeUpdate(decideStageUpdate, {
            args: [decide(rig.otherLaoStaff, { stage: 1, expectedVersion: 0 })],
          }),
        ),
      ).toBe('INVALID');
      // A rejection needs its reason.
      expect(
        await failureType(
          handle.executeUpdate(decideStageUpdate, {
            args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0, decision: 'REJECTED' })],
          }),
        ),
      ).toBe('INVALID');
      const rejected = await handle.executeUpdate(decideStageUpdate, {
        args: [
          decide(rig.laoStaff, {
            stage: 1,
            expectedVersion: 0,
            decision: 'REJECTED',
            comment: 'Not a member of this site',
          }),
        ],
      });
      expect(rejected).toMatchObject({ status: 'REJECTED', version: 1, reviewerComments: 'Not a member of this site' });
      const final = (await handle.result()) as LifecycleState;
      expect(final.status).toBe('REJECTED');
      expect((await stagesOf(filed.id)).map((r) => r.state)).toEqual(['REJECTED', 'CLOSED']);
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'REJECTED',
        approvalStage: null,
        reviewerComments: 'Not a member of this site',
      });
      const resolution = await prisma.outboundMail.findUnique({ where: { key: `${filed.workflowId}:mail` } });
      expect(resolution?.status).toBe('SENT');
      await maybeRecordHistory(env, filed.workflowId, 'approval', 'rejected-at-stage-1');
    });
  });

  it('a rejection at stage 2 after stage 1 was approved', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      await handle.executeUpdate(decideStageUpdate, { args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0 })] });
      const rejected = await handle.executeUpdate(decideStageUpdate, {
        args: [
          decide(rig.studyApprover, {
            stage: 2,
            expectedVersion: 1,
            decision: 'REJECTED',
            comment: 'Study closed to accrual',
          }),
        ],
      });
      expect(rejected).toMatchObject({ status: 'REJECTED', version: 2 });
      await handle.result();
      expect((await stagesOf(filed.id)).map((r) => r.state)).toEqual(['APPROVED', 'REJECTED']);
    });
  });

  it('a deadline passing: the reminder, then the escalation to User Support, who decides the stage', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 2, 1)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, {
        block: rig.block,
        apiEnv: { APPROVAL_WORKING_DAY: '2 seconds' },
      });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await until(
        async () => (await handle.query(stateQuery)).approval?.escalated === true,
        'the stage escalated',
        30_000,
      );
      const state = await handle.query(stateQuery);
      expect(state.approval).toMatchObject({ stage: 1, group: 'USER_SUPPORT' });
      const [row] = await stagesOf(filed.id);
      expect(row).toMatchObject({ approvers: 'LAO_STAFF', approverGroup: 'USER_SUPPORT', state: 'OPEN' });
      expect(row!.remindedAt!.getTime()).toBeLessThan(row!.escalatedAt!.getTime());
      expect(row!.remindedAt!.getTime()).toBeGreaterThanOrEqual(row!.remindAt!.getTime());
      expect(row!.escalatedAt!.getTime()).toBeGreaterThanOrEqual(row!.deadlineAt!.getTime());
      expect(await auditActions(prisma, filed.workflowId)).toEqual(
        expect.arrayContaining(['APPROVAL_STAGE_REMINDED', 'APPROVAL_STAGE_ESCALATED']),
      );
      // The reminder went to the LAO staff; the escalation to User Support (the demo reviewer among them).
      await until(
        async () =>
          (await prisma.outboundMail.count({
            where: {
              key: {
                in: [
                  `${filed.workflowId}:stage-1:REMINDER:${rig.laoStaff.userId}`,
                  `${filed.workflowId}:stage-1:ESCALATED:${REVIEWER.userId}`,
                ],
              },
              status: 'SENT',
            },
          })) === 2,
        'the reminder and escalation mails sent',
      );
      // The LAO staff's turn is over; User Support decides it now.
      expect(
        await failureType(
          handle.executeUpdate(decideStageUpdate, { args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0 })] }),
        ),
      ).toBe('INVALID');
      const decided = await handle.executeUpdate(decideStageUpdate, {
        args: [decide(REVIEWER, { stage: 1, expectedVersion: 0 })],
      });
      expect(decided.approval).toMatchObject({ stage: null });
      await handle.executeUpdate(reviewUpdate, {
        args: [review({ expectedVersion: 1, requestStatus: 'REJECTED', reviewerComments: 'done' })],
      });
      await handle.result();
      await maybeRecordHistory(env, filed.workflowId, 'approval', 'escalated');
    });
  });

  it('the override: User Support approves over an open stage with a justification, audited, the stages closed', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      const done = await handle.executeUpdate(reviewUpdate, {
        args: [
          review({
            requestStatus: 'APPROVED',
            payload: await appliedPayload(prisma, filed),
            approvalOverride: 'Urgent: the site PI confirmed by phone',
          }),
        ],
      });
      expect(done).toMatchObject({ status: 'APPROVED' });
      await handle.result();
      expect((await stagesOf(filed.id)).map((r) => r.state)).toEqual(['CLOSED']);
      const override = await prisma.auditEvent.findFirstOrThrow({
        where: { workflowId: filed.workflowId, action: 'APPROVAL_OVERRIDE' },
      });
      expect(override.after).toMatchObject({
        justification: 'Urgent: the site PI confirmed by phone',
        stagesClosed: 1,
      });
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        approvalStage: null,
      });
      await maybeRecordHistory(env, filed.workflowId, 'approval', 'override');
    });
  });

  it('a worker stopped between stages: the next worker decides stage 2 and nothing is written twice', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const queue = uniqueQueue('approval-restart');
    const filed = await fileAccessRequest(env, prisma, queue, { block: rig.block });
    const handle = env.client.workflow.getHandle(filed.workflowId);
    const first = await newWorker(env, prisma, queue);
    await first.runUntil(async () => {
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      await handle.executeUpdate(decideStageUpdate, { args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0 })] });
    });
    const second = await newWorker(env, prisma, queue);
    await second.runUntil(async () => {
      expect((await handle.query(stateQuery)).approval).toMatchObject({ stage: 2 });
      await handle.executeUpdate(decideStageUpdate, {
        args: [decide(rig.studyApprover, { stage: 2, expectedVersion: 1 })],
      });
      await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 2, requestStatus: 'REJECTED' })] });
      await handle.result();
    });
    const actions = await auditActions(prisma, filed.workflowId);
    expect(actions.filter((a) => a === 'APPROVAL_STAGE_OPENED')).toHaveLength(2);
    expect(actions.filter((a) => a === 'APPROVAL_STAGE_APPROVED')).toHaveLength(2);
  });

  it('a policy changed after filing does not move the request; a REMOVAL has no stages', async () => {
    const rig = await policyRig(prisma, [stage('LAO_STAFF', 5)]);
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
      await prisma.approvalPolicy.update({
        where: { id: rig.policyId },
        data: { stages: [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)], versionno: { increment: 1 } },
      });
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await until(async () => (await handle.query(stateQuery)).approval?.stage === 1, 'stage 1 opened');
      expect((await handle.query(stateQuery)).approval?.stages).toBe(1);
      await handle.executeUpdate(decideStageUpdate, { args: [decide(rig.laoStaff, { stage: 1, expectedVersion: 0 })] });
      expect((await handle.query(stateQuery)).approval).toMatchObject({ stage: null, stages: 1 });

      const removal = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block, requestType: 'REMOVAL' });
      expect((await prisma.accessModRequest.findUniqueOrThrow({ where: { id: removal.id } })).approvalPlan).toBeNull();
      const removalHandle = env.client.workflow.getHandle(removal.workflowId);
      // Filed with approvalStages 0: exactly the spec's review, not even the plan's read.
      expect((await removalHandle.query(stateQuery)).approval).toBeUndefined();
      await removalHandle.executeUpdate(reviewUpdate, { args: [review({ requestStatus: 'REJECTED' })] });
      await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })] });
      await removalHandle.result();
      const history = await removalHandle.fetchHistory();
      const scheduled = (history.events ?? []).flatMap((e) =>
        e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : [],
      );
      expect(scheduled).toEqual(['commitSave', 'sendResolutionMail']);
    });
  });
});
