/**
 * Shared setup of the approval stage tests (docs/decisions.md "Approval policies"): a study role of each test's
 * own (so no other test's requests fall under its policy), a policy on it, LAO staff of the LAO the blocks name
 * and a named approver of their study, and the decision update's argument. Rows are written directly: the
 * configuration routes have tests of their own (approval-policies/config-api.test.ts).
 */
import crypto from 'node:crypto';
import type { AccessControl, ApprovalStage } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { ReviewActor, StageDecisionInput } from '@portal/workflows';

/** An LAO of the seeded network (prisma/seed/network.ts). */
export const LAO = 'MA036';

export interface PolicyRig {
  block: AccessControl;
  policyId: number;
  studyRoleId: number;
  laoStaff: ReviewActor;
  studyApprover: ReviewActor;
  /** LAO staff of another LAO: not an approver of the block's stage. */
  otherLaoStaff: ReviewActor;
}

async function person(prisma: PrismaClient, tag: string): Promise<ReviewActor> {
  const username = `ap${tag}${crypto.randomBytes(4).toString('hex')}`;
  const user = await prisma.portalUser.create({
    data: { username, firstName: 'Approver', lastName: tag, email: `${username}@it.portal.test` },
  });
  return { userId: user.id, username, permissions: ['USER'] };
}

/** A study role of its own with `stages`, its LAO staff (at LAO) and a named approver of its block's study. */
export async function policyRig(prisma: PrismaClient, stages: ApprovalStage[]): Promise<PolicyRig> {
  const tag = crypto.randomBytes(4).toString('hex');
  const system = await prisma.systemAccess.findFirstOrThrow({ where: { inactive: false, fixed: false } });
  const portal = await prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } });
  const role = await prisma.studyRole.create({
    data: {
      roleName: `Approval Test ${tag}`,
      description: 'approval stage tests',
      systems: { create: [{ systemId: portal.id }, { systemId: system.id }] },
    },
  });
  const study = await prisma.study.findFirstOrThrow({ orderBy: { study: 'asc' } });
  const policy = await prisma.approvalPolicy.create({
    data: { studyRoleId: role.id, stages, lastModifiedBy: 'test' },
  });
  const laoStaff = await person(prisma, 'lao');
  const otherLaoStaff = await person(prisma, 'other');
  const studyApprover = await person(prisma, 'study');
  for (const [who, lao] of [
    [laoStaff, LAO],
    [otherLaoStaff, 'WA008'],
  ] as const) {
    await prisma.userAccess.create({
      data: {
        portalUserId: who.userId,
        roleName: 'LAO Staff',
        laoIds: [lao],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
  }
  await prisma.studyApprover.create({ data: { studyId: study.id, portalUserId: studyApprover.userId } });
  return {
    block: {
      questionNum: 1,
      roleName: role.roleName,
      siteCodes: [],
      laoIds: [LAO],
      studyNames: [study.study],
      systemAccessIds: [portal.id, system.id],
    },
    policyId: policy.id,
    studyRoleId: role.id,
    laoStaff,
    studyApprover,
    otherLaoStaff,
  };
}

/** A stage: `approvers`, `deadlineDays`, `reminderDays`, escalating to User Support. */
export const stage = (
  approvers: ApprovalStage['approvers'],
  deadlineDays: number,
  reminderDays = 0,
): ApprovalStage => ({ approvers, deadlineDays, reminderDays, escalateTo: 'USER_SUPPORT' });

/** The `decideStage` argument. */
export const decide = (
  actor: ReviewActor,
  over: Partial<StageDecisionInput> & Pick<StageDecisionInput, 'stage' | 'expectedVersion'>,
): StageDecisionInput => ({ decision: 'APPROVED', comment: '', actor, ...over });
