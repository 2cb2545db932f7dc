/**
 * Approval stages through the API's routes with a real worker (docs/decisions.md "Approval policies"): requests
 * filed through the API under a policy of their own study role (`signedInRig`), decided through POST
 * /rest/secure/user_access_mod_request/{id}/stage by people signed in through the API. Who may decide which
 * stage (every demo persona, the requester, the rig's LAO staff, other-LAO staff and study approver); the single
 * request's `approval` and who may read it; 'Awaiting my approval' as the stages move; the review route's
 * APPROVED refused while a stage is open and its override; a policy changed through its route after a filing;
 * a stale version, a rejection without and with its comment (the requester's resolution mail tells it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_TEXTS, GLOBAL_ERRORS } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import {
  type FiledRequest,
  type TemporalTestEnv,
  appliedPayload,
  auditActions,
  fileAccessRequest,
  uniqueQueue,
  until,
  useLifecycleStack,
} from '../lifecycle/support';
import { type SignedInRig, signedInRig, stage } from '../approval/support';

const ONE = (id: number) => `/rest/secure/user_access_mod_request/${id}`;
const AWAITING = '/rest/secure/user_access_mod_request/awaiting_my_approval';
const REVIEW = '/rest/secure/user_management/review_access_change_request';
const POLICIES = '/rest/secure/system_mgmt/approval_policies';
const PERSONAS = ['admin', 'reviewer', 'readonly', 'user', 'laostaff'] as const;
const taskQueue = uniqueQueue('approval-decisions-api');

let api: TestApi;
let prisma: PrismaClient;
let call: ReturnType<typeof caller>;
let stopWorker: () => Promise<void>;
const personas = {} as Record<(typeof PERSONAS)[number], Session>;

let env: TemporalTestEnv;
useLifecycleStack((e) => {
  env = e;
});

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  prisma = api.prisma;
  call = caller(api.app);
  stopWorker = await startWorker(api, taskQueue);
  for (const p of PERSONAS) personas[p] = await signIn(api.app, p);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

/** Files a NEW request under `rig`'s policy through the API (the subject files for themself); stage 1 open. */
async function filedOpen(rig: SignedInRig): Promise<FiledRequest & { subject: Session }> {
  const filed = await fileAccessRequest(env, prisma, taskQueue, { block: rig.block });
  await until(
    async () => (await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).approvalStage === 1,
    'stage 1 opened',
  );
  return { ...filed, subject: await signIn(api.app, (await user(filed.subjectId)).username, filed.password) };
}

const user = (id: number) => prisma.portalUser.findUniqueOrThrow({ where: { id } });

const decide = (s: Session, id: number, body: Record<string, unknown>) =>
  call(s, 'POST', `${ONE(id)}/stage`, { decision: 'APPROVED', comment: '', ...body });

const awaitingIds = async (s: Session): Promise<number[]> => {
  const res = await call(s, 'GET', `${AWAITING}?page=1&size=1000`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().content as Array<{ id: number }>).map((r) => r.id);
};

describe('the stage decision route with the worker', () => {
  it('answers 403 to everyone who may not decide the open stage, 200 to the one who may; then the next group', async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await filedOpen(rig);
    const s = rig.sessions;
    // Stage 1 (LAO staff of MA036): the requester/subject, LAO staff of another LAO, the study approver and every
    // persona but the demo LAO staff (an LAO Staff record at MA036) are refused; User Support too (not escalated).
    const refused1: Array<[string, Session]> = [
      ['subject', filed.subject],
      ['otherLaoStaff', s.otherLaoStaff],
      ['studyApprover', s.studyApprover],
      ...(['admin', 'reviewer', 'readonly', 'user'] as const).map((p): [string, Session] => [p, personas[p]]),
    ];
    for (const [who, session] of refused1) {
      const res = await decide(session, filed.id, { stage: 1, versionno: 0 });
      expect([who, res.statusCode, res.json().message]).toEqual([who, 403, APPROVAL_TEXTS.notYourStage]);
    }
    // The demo LAO staff may decide it (read, not decided: the rig's LAO staff decides).
    const demoView = await call(personas.laostaff, 'GET', ONE(filed.id));
    expect(demoView.json().approval).toMatchObject({ currentStage: 1, mayDecide: true });

    const first = await decide(s.laoStaff, filed.id, { stage: 1, versionno: 0, comment: 'Site confirmed' });
    expect(first.statusCode, first.body).toBe(200);
    // A stage decision moves no status: the request stays as filed until User Support's review.
    expect(first.json()).toMatchObject({ versionno: 1, requestStatus: 'NEW' });
    expect(first.json().approval).toMatchObject({ currentStage: 2, mayDecide: false });
    expect(first.json().approval.stages).toMatchObject([
      { stage: 1, state: 'APPROVED', decidedBy: rig.laoStaff.username, comment: 'Site confirmed' },
      { stage: 2, state: 'OPEN', group: 'STUDY_APPROVERS' },
    ]);

    // Stage 2 belongs to the study approvers: the LAO staff (both), the subject and the personas are refused.
    const refused2: Array<[string, Session]> = [
      ['subject', filed.subject],
      ['laoStaff', s.laoStaff],
      ['otherLaoStaff', s.otherLaoStaff],
      ...PERSONAS.map((p): [string, Session] => [p, personas[p]]),
    ];
    for (const [who, session] of refused2) {
      const res = await decide(session, filed.id, { stage: 2, versionno: 1 });
      expect([who, res.statusCode]).toEqual([who, 403]);
    }
    const second = await decide(s.studyApprover, filed.id, { stage: 2, versionno: 1 });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ versionno: 2, approval: { currentStage: null, mayDecide: false } });
    // No stage open: nobody decides any more (User Support's review is what remains).
    expect((await decide(personas.reviewer, filed.id, { stage: 2, versionno: 2 })).statusCode).toBe(403);
    expect(await auditActions(prisma, filed.workflowId)).toEqual(
      expect.arrayContaining(['APPROVAL_STAGE_OPENED', 'APPROVAL_STAGE_APPROVED']),
    );
  });

  it("the single request: `approval.mayDecide` for the open stage's approver, unreadable to them once decided", async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await filedOpen(rig);
    const mine = await call(rig.sessions.laoStaff, 'GET', ONE(filed.id));
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().approval).toMatchObject({ currentStage: 1, mayDecide: true });
    // The study approver's stage is not open yet: the request answers as an unknown one.
    expect((await call(rig.sessions.studyApprover, 'GET', ONE(filed.id))).statusCode).toBe(404);
    // The requester reads their own request, and may not decide it.
    const own = await call(filed.subject, 'GET', ONE(filed.id));
    expect(own.json().approval).toMatchObject({ currentStage: 1, mayDecide: false });

    expect((await decide(rig.sessions.laoStaff, filed.id, { stage: 1, versionno: 0 })).statusCode).toBe(200);
    // Once decided, the LAO staff may no longer read it (no READ_USERS, no open stage of theirs): 404.
    expect((await call(rig.sessions.laoStaff, 'GET', ONE(filed.id))).statusCode).toBe(404);
    const theirs = await call(rig.sessions.studyApprover, 'GET', ONE(filed.id));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().approval).toMatchObject({ currentStage: 2, mayDecide: true });
  });

  it("'Awaiting my approval' follows the open stage: the LAO staff's while stage 1 is open, then the study approver's", async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await filedOpen(rig);
    expect(await awaitingIds(rig.sessions.laoStaff)).toContain(filed.id);
    expect(await awaitingIds(rig.sessions.otherLaoStaff)).not.toContain(filed.id);
    expect(await awaitingIds(rig.sessions.studyApprover)).not.toContain(filed.id);
    expect(await awaitingIds(filed.subject)).not.toContain(filed.id);
    expect(await awaitingIds(personas.reviewer)).not.toContain(filed.id);

    expect((await decide(rig.sessions.laoStaff, filed.id, { stage: 1, versionno: 0 })).statusCode).toBe(200);
    expect(await awaitingIds(rig.sessions.laoStaff)).not.toContain(filed.id);
    const row = (await call(rig.sessions.studyApprover, 'GET', `${AWAITING}?page=1&size=1000`))
      .json()
      .content.find((r: { id: number }) => r.id === filed.id);
    expect(row).toMatchObject({ stage: 2, stages: 2, group: 'STUDY_APPROVERS', escalated: false });

    expect((await decide(rig.sessions.studyApprover, filed.id, { stage: 2, versionno: 1 })).statusCode).toBe(200);
    expect(await awaitingIds(rig.sessions.studyApprover)).not.toContain(filed.id);
  });

  it('refuses APPROVED through the review route while a stage is open; the override approves, audited, stages CLOSED', async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await filedOpen(rig);
    const { userAccesses } = await appliedPayload(prisma, filed);
    const body = {
      userAccessModificationRequest: { id: filed.id, versionno: 0, requestStatus: 'APPROVED', reviewerComments: '' },
      userAccesses,
    };
    const refused = await call(personas.reviewer, 'PUT', REVIEW, body);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toEqual({
      fieldErrors: { 'userAccessModificationRequest.requestStatus': ['stagesOpen'] },
      globalErrors: [APPROVAL_TEXTS.stagesOpen],
    });

    const justification = 'The site PI confirmed by phone';
    const approved = await call(personas.reviewer, 'PUT', REVIEW, { ...body, approvalOverride: justification });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ requestStatus: 'APPROVED', approval: { currentStage: null } });
    expect(approved.json().approval.stages.map((x: { state: string }) => x.state)).toEqual(['CLOSED', 'CLOSED']);
    const override = await prisma.auditEvent.findFirstOrThrow({
      where: { workflowId: filed.workflowId, action: 'APPROVAL_OVERRIDE' },
    });
    expect(override.after).toMatchObject({ justification, stagesClosed: 2 });
    expect(await prisma.userAccess.count({ where: { portalUserId: filed.subjectId, inactive: false } })).toBe(1);
  });

  it('a policy changed through its route moves no request already filed; one filed after it has the new plan', async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5)]);
    const before = await filedOpen(rig);
    const changed = await call(personas.admin, 'PUT', `${POLICIES}/${rig.policyId}`, {
      studyRoleId: rig.studyRoleId,
      systemAccessId: null,
      stages: [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)],
      active: true,
      versionno: 0,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().stages).toHaveLength(2);
    const after = await filedOpen(rig);

    const old = await call(personas.reviewer, 'GET', ONE(before.id));
    expect(old.json().approval.stages).toHaveLength(1);
    const fresh = await call(personas.reviewer, 'GET', ONE(after.id));
    expect(fresh.json().approval.stages.map((x: { approvers: string }) => x.approvers)).toEqual([
      'LAO_STAFF',
      'STUDY_APPROVERS',
    ]);
    // The earlier request's one stage decided: no stage follows, the change notwithstanding.
    const decided = await decide(rig.sessions.laoStaff, before.id, { stage: 1, versionno: 0 });
    expect(decided.json().approval).toMatchObject({ currentStage: null });
    const next = await decide(rig.sessions.laoStaff, after.id, { stage: 1, versionno: 0 });
    expect(next.json().approval).toMatchObject({ currentStage: 2 });
  });

  it('a stale version 422; a rejection without comment 422; with it the request REJECTED and the requester told why', async () => {
    const rig = await signedInRig(api, [stage('LAO_STAFF', 5), stage('STUDY_APPROVERS', 3)]);
    const filed = await filedOpen(rig);
    expect((await decide(rig.sessions.laoStaff, filed.id, { stage: 1, versionno: 0 })).statusCode).toBe(200);
    const stale = await decide(rig.sessions.studyApprover, filed.id, { stage: 2, versionno: 0 });
    expect(stale.statusCode, stale.body).toBe(422);
    expect(stale.json().globalErrors).toContain(GLOBAL_ERRORS.staleVersion);

    const bare = await decide(rig.sessions.studyApprover, filed.id, { stage: 2, versionno: 1, decision: 'REJECTED' });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().fieldErrors).toEqual({ comment: ['required'] });

    const reason = 'Study closed to accrual at this site';
    const rejected = await decide(rig.sessions.studyApprover, filed.id, {
      stage: 2,
      versionno: 1,
      decision: 'REJECTED',
      comment: reason,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ requestStatus: 'REJECTED', reviewerComments: reason, versionno: 2 });
    await until(
      async () =>
        (await prisma.outboundMail.findUnique({ where: { key: `${filed.workflowId}:mail` } }))?.status === 'SENT',
      'the resolution mail sent',
    );
    const mail = await waitForMail(filed.email, '');
    expect(mail.text ?? mail.html ?? '').toContain(reason);
  });
});
