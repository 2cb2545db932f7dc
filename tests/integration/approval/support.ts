/**
 * Shared setup of the approval stage tests (docs/decisions.md "Approval policies"): a study role of each test's
 * own (so no other test's requests fall under its policy), a policy on it, LAO staff of the LAO the blocks name
 * and a named approver of their study (signed in through an API for the route tests: `signedInRig`), and the
 * decision update's argument. Rows are written directly: the configuration routes have tests of their own
 * (approval-policies/config-api.test.ts).
 */
import crypto from 'node:crypto';
import type { AccessControl, ApprovalStage } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { ReviewActor, StageDecisionInput } from '@portal/workflows';
import { createTestUser } from '../auth-helpers';
import { type Session, type TestApi, signIn } from '../harness';

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

/**
 * A study role of its own with `stages`, its LAO staff (at LAO) and a named approver of its block's study.
 * `newPerson` makes each of the three people (default: a portal row with no directory entry, who cannot sign in).
 */
export async function policyRig(
  prisma: PrismaClient,
  stages: ApprovalStage[],
  newPerson: (tag: string) => Promise<ReviewActor> = (tag) => person(prisma, tag),
): Promise<PolicyRig> {
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
  const laoStaff = await newPerson('lao');
  const otherLaoStaff = await newPerson('other');
  const studyApprover = await newPerson('study');
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

type RigPeople = 'laoStaff' | 'otherLaoStaff' | 'studyApprover';

/** A policy rig whose three people sign in through `api` (route tests): their sessions and passwords. */
export interface SignedInRig extends PolicyRig {
  sessions: Record<RigPeople, Session>;
  /** Entered again to sign (SIGNATURES=on). */
  passwords: Record<RigPeople, string>;
}

/** `policyRig` with people who have a directory entry and a password, signed in through `api`. */
export async function signedInRig(api: TestApi, stages: ApprovalStage[]): Promise<SignedInRig> {
  const passwords = new Map<number, string>();
  const rig = await policyRig(api.prisma, stages, async (tag) => {
    const u = await createTestUser(api, `ap${tag}`);
    passwords.set(u.user.id, u.password);
    return { userId: u.user.id, username: u.username, permissions: ['USER'] };
  });
  const people = ['laoStaff', 'otherLaoStaff', 'studyApprover'] as const;
  const password = (who: RigPeople) => passwords.get(rig[who].userId)!;
  const sessions = {} as Record<RigPeople, Session>;
  for (const who of people) sessions[who] = await signIn(api.app, rig[who].username, password(who));
  return {
    ...rig,
    sessions,
    passwords: {
      laoStaff: password('laoStaff'),
      otherLaoStaff: password('otherLaoStaff'),
      studyApprover: password('studyApprover'),
    },
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
