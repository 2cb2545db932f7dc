/**
 * Approval stages on the request side (docs/decisions.md "Approval policies") against real PostgreSQL, with
 * requests written directly into AccessModRequest / AccessRequestStage as the workflow would leave them (no
 * worker runs here): 'Awaiting my approval' (LAO staff see their LAOs' requests only, study approvers their
 * studies', User Support the escalated ones, nobody their own; by deadline; paged), the single request readable
 * by its open stage's approver and nobody else without READ_USERS, the request view's `approval`, the stage
 * decision's refusals made before the update (403 for a non-approver or no open stage, 404, 422 for a stage
 * that is not the open one or a bad body; with SIGNATURES=on a decision without a ticket) and the review's
 * stages-open check. The decision's happy path needs the worker's `decideStage`: decisions-api.test.ts runs it
 * through these routes with a real worker.
 */
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_TEXTS, MESSAGES, SIGNATURE_ERRORS } from '@portal/contract';
import type { AccessModRequest, PortalUser } from '@portal/db';
import { createTestUser } from '../auth-helpers';
import { type Session, caller, signIn, startApi, useConfigApi } from '../config-support';

const { api, call, readonly, user } = useConfigApi();
const AWAITING = '/rest/secure/user_access_mod_request/awaiting_my_approval';
const one = (id: number) => `/rest/secure/user_access_mod_request/${id}`;
const code = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;

const LAO_X = code('LX');
const LAO_Y = code('LY');
const STUDY = code('APPR-STUDY-');
const ROLE = 'Study Coordinator';

let support: Session;
let staffX: { session: Session; user: PortalUser; username: string; password: string };
let staffY: { session: Session; user: PortalUser };
let approver: { session: Session; user: PortalUser };
let subject: PortalUser;

/** A person who signs in, holding the reviewer study role for `laoIds` (none: an ordinary user). */
async function person(tag: string, laoIds: string[] = []) {
  const u = await createTestUser(api, tag);
  if (laoIds.length) {
    await api.prisma.userAccess.create({
      data: {
        portalUserId: u.user.id,
        roleName: api.cfg.ACCESS_REVIEW_STUDY_ROLE,
        siteCodes: [],
        laoIds,
        studyNames: [],
        systemAccessIds: [],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
  }
  return {
    session: await signIn(api.app, u.username, u.password),
    user: u.user,
    username: u.username,
    password: u.password,
  };
}

const DAY = 86_400_000;

/**
 * A request with an open stage 1 of `group` (approvalStage null with `open: false`), its stage rows, the
 * deadline `deadlineInDays` from now; filed by `requester` (default: the subject) for `subject`.
 */
async function staged(opts: {
  group: 'LAO_STAFF' | 'STUDY_APPROVERS' | 'USER_SUPPORT';
  laoIds?: string[];
  studyNames?: string[];
  deadlineInDays: number;
  requester?: PortalUser;
  open?: boolean;
  /** A CHANGE of this access record of the subject's. */
  changes?: number;
}): Promise<AccessModRequest> {
  const approvers = opts.group === 'STUDY_APPROVERS' ? 'STUDY_APPROVERS' : 'LAO_STAFF';
  const deadline = new Date(Date.now() + opts.deadlineInDays * DAY);
  const open = opts.open ?? true;
  const planned = { approvers, deadlineDays: 5, reminderDays: 2, escalateTo: 'USER_SUPPORT', policyIds: [1] };
  const request = await api.prisma.accessModRequest.create({
    data: {
      workflowId: `approval-test-${crypto.randomUUID()}`,
      requestType: opts.changes ? 'CHANGE' : 'NEW',
      existingUserAccessId: opts.changes ?? null,
      requestStatus: 'PENDING_REVIEW',
      subjectUserId: subject.id,
      requesterUserId: (opts.requester ?? subject).id,
      accessControls: [
        {
          questionNum: 1,
          roleName: ROLE,
          siteCodes: [],
          laoIds: opts.laoIds ?? [],
          studyNames: [],
          systemAccessIds: [],
        },
      ],
      lastModifiedBy: 'approval-test',
      workflowStartedAt: new Date(),
      approvalPlan: { stages: [planned], laoIds: opts.laoIds ?? [], studyNames: opts.studyNames ?? [] },
      approvalStage: open ? 1 : null,
      approvalGroup: open ? opts.group : null,
      approvalDeadline: open ? deadline : null,
      approvalLaoIds: opts.laoIds ?? [],
      approvalStudyNames: opts.studyNames ?? [],
    },
  });
  await api.prisma.accessRequestStage.create({
    data: {
      requestId: request.id,
      stage: 1,
      approvers,
      escalateTo: 'USER_SUPPORT',
      approverGroup: opts.group,
      deadlineDays: 5,
      reminderDays: 2,
      state: open ? 'OPEN' : 'APPROVED',
      openedAt: new Date(Date.now() - DAY),
      deadlineAt: deadline,
      escalatedAt: opts.group === 'USER_SUPPORT' ? new Date() : null,
    },
  });
  return request;
}

let r: Record<'x1' | 'x2' | 'y' | 'study' | 'escalated' | 'ownX' | 'closedX', AccessModRequest>;

beforeAll(async () => {
  support = await signIn(api.app, 'reviewer');
  [staffX, staffY, approver] = await Promise.all([person('apprx', [LAO_X]), person('appry', [LAO_Y]), person('apprs')]);
  subject = (await createTestUser(api, 'apprsubj', { withEntry: false })).user;
  const study = await api.prisma.study.create({ data: { study: STUDY } });
  await api.prisma.studyApprover.create({ data: { studyId: study.id, portalUserId: approver.user.id } });
  r = {
    x1: await staged({ group: 'LAO_STAFF', laoIds: [LAO_X], deadlineInDays: 4 }),
    x2: await staged({ group: 'LAO_STAFF', laoIds: [LAO_X, LAO_Y], deadlineInDays: 2 }),
    y: await staged({ group: 'LAO_STAFF', laoIds: [LAO_Y], deadlineInDays: 3 }),
    study: await staged({ group: 'STUDY_APPROVERS', studyNames: [STUDY], deadlineInDays: 3 }),
    escalated: await staged({ group: 'USER_SUPPORT', laoIds: [LAO_X], deadlineInDays: -1 }),
    ownX: await staged({ group: 'LAO_STAFF', laoIds: [LAO_X], deadlineInDays: 1, requester: staffX.user }),
    closedX: await staged({ group: 'LAO_STAFF', laoIds: [LAO_X], deadlineInDays: 1, open: false }),
  };
});

const idsOf = (res: { json(): { content: Array<{ id: number }> } }) => res.json().content.map((x) => x.id);

describe('awaiting my approval', () => {
  it('answers each approver the open stages they may decide, by deadline, never their own', async () => {
    const x = await call(staffX.session, 'GET', AWAITING);
    expect(x.statusCode, x.body).toBe(200);
    expect(idsOf(x)).toEqual([r.x2.id, r.x1.id]);
    expect(x.json()).toMatchObject({ totalElements: 2, number: 1, size: 25, first: true, last: true });
    expect(x.json().content[0]).toMatchObject({
      id: r.x2.id,
      requestType: 'NEW',
      stage: 1,
      stages: 1,
      group: 'LAO_STAFF',
      escalated: false,
      firstName: subject.firstName,
      lastName: subject.lastName,
      email: subject.email,
      roleNames: [ROLE],
      deadlineAt: r.x2.approvalDeadline!.toISOString(),
    });
    expect(idsOf(await call(staffY.session, 'GET', AWAITING))).toEqual([r.x2.id, r.y.id]);
    expect(idsOf(await call(approver.session, 'GET', AWAITING))).toEqual([r.study.id]);
    expect(idsOf(await call(user, 'GET', AWAITING))).toEqual([]);

    const mine = idsOf(await call(support, 'GET', `${AWAITING}?size=1000`));
    expect(mine).toContain(r.escalated.id);
    for (const other of [r.x1, r.x2, r.y, r.study, r.ownX, r.closedX]) expect(mine).not.toContain(other.id);
    const row = (await call(support, 'GET', `${AWAITING}?size=1000`))
      .json()
      .content.find((c: { id: number }) => c.id === r.escalated.id);
    expect(row).toMatchObject({ group: 'USER_SUPPORT', escalated: true });
  });

  it('pages, and refuses a bad page or no session', async () => {
    const first = await call(staffX.session, 'GET', `${AWAITING}?page=1&size=1`);
    expect(first.json()).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1, last: false });
    expect(idsOf(first)).toEqual([r.x2.id]);
    expect(idsOf(await call(staffX.session, 'GET', `${AWAITING}?page=2&size=1`))).toEqual([r.x1.id]);
    const bad = await call(staffX.session, 'GET', `${AWAITING}?page=0`);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fieldErrors)).toEqual(['page']);
    expect((await call(null, 'GET', AWAITING)).statusCode).toBe(401);
  });
});

describe('one request: read by its open stage approver', () => {
  it("lets the open stage's approvers read it with its approval, and nobody else without READ_USERS", async () => {
    const read = await call(staffX.session, 'GET', one(r.x1.id));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().approval).toMatchObject({ currentStage: 1, mayDecide: true });
    expect(read.json().approval.stages).toEqual([
      expect.objectContaining({ stage: 1, approvers: 'LAO_STAFF', group: 'LAO_STAFF', state: 'OPEN', decidedBy: null }),
    ]);
    expect((await call(approver.session, 'GET', one(r.study.id))).statusCode).toBe(200);

    const unknown = { message: MESSAGES.access.loadRequestsFailed };
    for (const [session, request] of [
      [staffY.session, r.x1],
      [approver.session, r.x1],
      [user, r.x1],
      [staffX.session, r.study],
      [staffX.session, r.closedX],
    ] as const) {
      const denied = await call(session, 'GET', one(request.id));
      expect(denied.statusCode).toBe(404);
      expect(denied.json()).toEqual(unknown);
    }
    const reader = await call(readonly, 'GET', one(r.x1.id));
    expect(reader.statusCode).toBe(200);
    expect(reader.json().approval).toMatchObject({ currentStage: 1, mayDecide: false });
    const plain = await call(readonly, 'GET', one(r.closedX.id));
    expect(plain.json().approval).toMatchObject({ currentStage: null, mayDecide: false });
  });
});

describe('one CHANGE request: its original access comes with it', () => {
  it('answers the held record to an LAO staff approver without READ_USERS (who may not read it apart)', async () => {
    const held = await api.prisma.userAccess.create({
      data: {
        portalUserId: subject.id,
        roleName: ROLE,
        siteCodes: [],
        laoIds: [LAO_X],
        studyNames: [STUDY],
        systemAccessIds: [],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    const change = await staged({ group: 'LAO_STAFF', laoIds: [LAO_X], deadlineInDays: 5, changes: held.id });
    const read = await call(staffX.session, 'GET', one(change.id));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      requestType: 'CHANGE',
      existingUserAccessId: held.id,
      originalAccess: { id: held.id, roleName: ROLE, laoIds: [LAO_X], studyNames: [STUDY] },
    });
    expect((await call(staffX.session, 'GET', `/rest/secure/user_access/${held.id}`)).statusCode).toBe(403);
    // A NEW request has none.
    expect((await call(staffX.session, 'GET', one(r.x1.id))).json().originalAccess).toBeNull();
    await api.prisma.accessModRequest.update({
      where: { id: change.id },
      data: { requestStatus: 'REJECTED', approvalStage: null, approvalGroup: null },
    });
  });
});

describe('the stage decision: refusals before the update', () => {
  const decide = (s: Session | null, id: number, body: Record<string, unknown> = {}) =>
    call(s, 'POST', `${one(id)}/stage`, { stage: 1, decision: 'APPROVED', comment: '', versionno: 0, ...body });

  it('answers 403 to who may not decide the open stage, 404 for an unknown request', async () => {
    for (const [session, request] of [
      [user, r.x1],
      [staffY.session, r.x1],
      [approver.session, r.x1],
      [staffX.session, r.ownX],
      [staffX.session, r.closedX],
      [readonly, r.x1],
    ] as const) {
      const denied = await decide(session, request.id);
      expect(denied.statusCode, `${request.id}`).toBe(403);
      expect(denied.json()).toEqual({ message: APPROVAL_TEXTS.notYourStage });
    }
    expect((await decide(staffX.session, 999_999_999)).statusCode).toBe(404);
    expect((await decide(null, r.x1.id)).statusCode).toBe(401);
  });

  it('answers 422 for a stage that is not the open one and for a bad body', async () => {
    const wrong = await decide(staffX.session, r.x1.id, { stage: 2 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ fieldErrors: { stage: ['notOpen'] }, globalErrors: [APPROVAL_TEXTS.stageDecided] });
    const noComment = await decide(staffX.session, r.x1.id, { decision: 'REJECTED' });
    expect(noComment.statusCode).toBe(422);
    expect(noComment.json().fieldErrors).toEqual({ comment: ['required'] });
  });

  it("with SIGNATURES=on, refuses an approver's decision without a ticket", async () => {
    const signed = await startApi({ SIGNATURES: 'on' });
    try {
      const session = await signIn(signed.app, staffX.username, staffX.password);
      const res = await caller(signed.app)(session, 'POST', `${one(r.x1.id)}/stage`, {
        stage: 1,
        decision: 'APPROVED',
        comment: '',
        versionno: 0,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ fieldErrors: {}, globalErrors: [SIGNATURE_ERRORS.required] });
    } finally {
      await signed.close();
    }
  });
});

describe('the review: approving past open stages', () => {
  it('needs an override justification while a stage is open', async () => {
    const save = {
      userAccessModificationRequest: {
        id: r.x1.id,
        versionno: 0,
        requestStatus: 'APPROVED',
        reviewerComments: '',
        sysaidTicket: '',
      },
    };
    const refused = await call(support, 'PUT', '/rest/secure/user_management/review_access_change_request', save);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      fieldErrors: { 'userAccessModificationRequest.requestStatus': ['stagesOpen'] },
      globalErrors: [APPROVAL_TEXTS.stagesOpen],
    });
    const blank = await call(support, 'PUT', '/rest/secure/user_management/review_access_change_request', {
      ...save,
      approvalOverride: '   ',
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().fieldErrors).toEqual({ 'userAccessModificationRequest.requestStatus': ['stagesOpen'] });
  });
});
