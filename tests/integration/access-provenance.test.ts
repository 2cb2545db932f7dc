/**
 * Why does this person have this access (issue 25) against real PostgreSQL, OpenLDAP and Temporal with an
 * in-process worker: GET user_access/user/{id}/provenance tells, per active record, the events of its version
 * chain from the audit trail: the review of an access-change request (REQUEST, with the request, reviewer,
 * time and comment), the Access tab's admin edits (ADMIN_EDIT), a change keeping the chain's earlier events,
 * a proxy batch's request (PROXY_BATCH), campaign rows (CAMPAIGN) and a record no audit row wrote (OTHER).
 * Who may read it: the person, READ_USERS, a reviewer of an open campaign item of theirs; others 403; an
 * unknown person 404. The audit statement is served by the (entityType, entityId) index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessProvenance, type UserAccess, addDays, dayIn } from '@portal/contract';
import { provenanceAuditSql } from '../../api/src/features/user-access/provenance';
import { type TestUser, createTestUser } from './auth-helpers';
import { demoRequestParts, grantBlock, roleBlockOf } from './fixtures';
import { BATCH_URL, batchEnded, subjectsAt } from './proxy-batch/support';
import { type Session, type TestApi, caller, signIn, startApi } from './harness';
import { fileByProxy, startRegistrationWorker } from './registrations/support';

const taskQueue = `access-provenance-${Date.now()}`;
const BASE = '/rest/secure/user_access';
const REVIEW = '/rest/secure/user_management/review_access_change_request';
/** The seeded people the tests act as ('user': a network user without READ_USERS). */
const PERSONAS = ['admin', 'reviewer', 'readonly', 'user', 'laostaff'] as const;
let api: TestApi;
let call: ReturnType<typeof caller>;
let as: Record<(typeof PERSONAS)[number], Session>;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, REVIEW_DEADLINE_MS: '8000' });
  call = caller(api.app);
  // With the directory: a registration's approval creates the person's entry.
  stopWorker = await startRegistrationWorker(api, taskQueue);
  const sessions = await Promise.all(PERSONAS.map(async (p) => [p, await signIn(api.app, p)] as const));
  as = Object.fromEntries(sessions) as typeof as;
});
afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

const blockOf = (roleName: string, extra: Record<string, unknown> = {}) => roleBlockOf(api.prisma, roleName, extra);
const provenanceUrl = (portalUserId: number) => `${BASE}/user/${portalUserId}/provenance`;
async function provenanceOf(portalUserId: number, session: Session = as.admin): Promise<AccessProvenance> {
  const res = await call(session, 'GET', provenanceUrl(portalUserId));
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const recordsOf = async (portalUserId: number): Promise<UserAccess[]> =>
  (await call(as.admin, 'GET', `${BASE}/user/${portalUserId}`)).json().content;

/** Files an access-change request as the person and has `reviewer` approve it with `userAccesses`. */
async function approvedRequest(
  u: TestUser,
  requestType: 'NEW' | 'CHANGE',
  accessControls: unknown[],
  userAccesses: unknown[],
  reviewerComments: string,
) {
  const session = await signIn(api.app, u.username, u.password);
  const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
    portalUserId: u.user.id,
    requestType,
    accessControls,
    requesterComments: 'For the new study.',
  });
  expect(filed.statusCode, filed.body).toBe(200);
  const request = filed.json() as { id: number; versionno: number };
  return { session, request, ...(await approve(request, userAccesses, reviewerComments)) };
}

async function approve(request: { id: number; versionno: number }, userAccesses: unknown[], reviewerComments = '') {
  const before = new Date();
  const approved = await call(as.reviewer, 'PUT', REVIEW, {
    userAccesses,
    userAccessModificationRequest: {
      id: request.id,
      versionno: request.versionno,
      requestStatus: 'APPROVED',
      reviewerComments,
      sysaidTicket: '',
    },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return { before, after: new Date() };
}

/** A new person holding one Safety Reviewer record, granted on the Access tab by admin. */
async function personWithSafetyReviewer(tag: string) {
  const u = await createTestUser(api, tag);
  await call(as.admin, 'PUT', `${BASE}/user/${u.user.id}`, { userAccesses: [await blockOf('Safety Reviewer')] });
  const [record] = await recordsOf(u.user.id);
  return { u, record: record! };
}

const within = (at: string, from: Date, to: Date) => {
  expect(new Date(at).getTime()).toBeGreaterThanOrEqual(from.getTime() - 1000);
  expect(new Date(at).getTime()).toBeLessThanOrEqual(to.getTime() + 1000);
};

describe('the events of an access record (issue 25 provenance)', () => {
  it("shows a request's grant with its reviewer, time and comment; admin edits; a change keeps the chain", async () => {
    const u = await createTestUser(api, 'pvreq');
    const dm = await blockOf('Data Manager');
    const { session, request, before, after } = await approvedRequest(u, 'NEW', [dm], [dm], 'Approved for the study.');
    const [granted] = await recordsOf(u.user.id);
    const own = await provenanceOf(u.user.id, session);
    expect(own.records).toEqual([
      {
        accessId: granted!.id,
        roleName: 'Data Manager',
        events: [
          {
            at: expect.any(String),
            label: 'Granted',
            source: 'REQUEST',
            actorUsername: 'reviewer',
            requestId: request.id,
            batchId: null,
            campaignId: null,
            campaignName: null,
            workflowId: expect.stringContaining(String(request.id)),
            comment: 'Approved for the study.',
          },
        ],
      },
    ]);
    within(own.records[0]!.events[0]!.at, before, after);

    // The Access tab: a change (new version) of that record and a new role, both ADMIN_EDIT by admin.
    const end = addDays(dayIn('UTC', new Date()), 60);
    const edited = await call(as.admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [{ ...granted, accessEndDate: end }, await blockOf('Safety Reviewer')],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [changed, added] = await recordsOf(u.user.id);
    expect(changed).toMatchObject({ roleName: 'Data Manager', versionno: 2 });
    const { records } = await provenanceOf(u.user.id);
    expect(records.map((r) => [r.accessId, r.roleName])).toEqual([
      [changed!.id, 'Data Manager'],
      [added!.id, 'Safety Reviewer'],
    ]);
    expect(records[0]!.events.map((e) => [e.label, e.source, e.actorUsername, e.requestId])).toEqual([
      ['Granted', 'REQUEST', 'reviewer', request.id],
      ['Changed', 'ADMIN_EDIT', 'admin', null],
    ]);
    expect(records[1]!.events.map((e) => [e.label, e.source, e.actorUsername])).toEqual([
      ['Granted', 'ADMIN_EDIT', 'admin'],
    ]);

    // A second request changes the record again: the chain keeps all three events, oldest first.
    const { request: second } = await approvedRequest(
      u,
      'CHANGE',
      [{ ...(await blockOf('Data Manager')), accessEndDate: addDays(end, 30) }],
      [
        { ...changed, accessEndDate: addDays(end, 30) },
        { ...added, id: added!.id },
      ],
      '',
    );
    const again = await provenanceOf(u.user.id);
    const dmEvents = again.records.find((r) => r.roleName === 'Data Manager')!.events;
    expect(dmEvents.map((e) => [e.label, e.source, e.requestId, e.comment])).toEqual([
      ['Granted', 'REQUEST', request.id, 'Approved for the study.'],
      ['Changed', 'ADMIN_EDIT', null, null],
      ['Changed', 'REQUEST', second.id, null],
    ]);
    expect([...dmEvents].map((e) => e.at)).toEqual([...dmEvents].map((e) => e.at).sort());
  });

  it('shows a record no audit row wrote from the record itself, then its audited change', async () => {
    const u = await createTestUser(api, 'pvseed');
    const { block } = await demoRequestParts(api.prisma);
    const seeded = await grantBlock(api.prisma, u.user.id, block);
    const { records } = await provenanceOf(u.user.id);
    expect(records).toEqual([
      {
        accessId: seeded.id,
        roleName: block.roleName,
        events: [
          expect.objectContaining({
            at: seeded.sysdat.toISOString(),
            label: 'Granted (no audit row)',
            source: 'OTHER',
            actorUsername: 'test',
            requestId: null,
          }),
        ],
      },
    ]);
    const [current] = await recordsOf(u.user.id);
    const res = await call(as.admin, 'PUT', `${BASE}/${current!.id}`, { ...current, siteCodes: ['MA036'] });
    expect(res.statusCode, res.body).toBe(200);
    const after = await provenanceOf(u.user.id);
    expect(after.records[0]!.accessId).toBe(res.json().id);
    expect(after.records[0]!.events.map((e) => [e.label, e.source, e.actorUsername])).toEqual([
      ['Granted (no audit row)', 'OTHER', 'test'],
      ['Changed', 'ADMIN_EDIT', 'admin'],
    ]);
  });

  it("shows a proxy batch's grant as PROXY_BATCH with the batch and the request", async () => {
    const [subject] = await subjectsAt(api.prisma, 'MA036', 1, 'pvpb');
    const { block } = await demoRequestParts(api.prisma);
    const filed = await call(as.laostaff, 'POST', BATCH_URL, { portalUserIds: [subject!.id], accessControls: [block] });
    expect(filed.statusCode, filed.body).toBe(200);
    const batchId = filed.json().id as number;
    expect((await batchEnded(api.prisma, batchId)).status).toBe('COMPLETED');
    const request = await api.prisma.accessModRequest.findFirstOrThrow({ where: { subjectUserId: subject!.id } });
    expect(request.isProxyRequest).toBe(true);
    const { questionNum: _q, ...wanted } = block;
    await approve({ id: request.id, versionno: request.versionno }, [...(await recordsOf(subject!.id)), wanted]);
    const { records } = await provenanceOf(subject!.id);
    const dm = records.find((r) => r.roleName === block.roleName)!;
    expect(dm.events).toEqual([
      expect.objectContaining({
        label: 'Granted',
        source: 'PROXY_BATCH',
        batchId,
        requestId: request.id,
        actorUsername: 'reviewer',
      }),
    ]);
    // The record the batch did not touch keeps its own (unaudited) grant.
    expect(records.find((r) => r.roleName === 'Clinical Research Associate')!.events).toEqual([
      expect.objectContaining({ label: 'Granted (no audit row)', source: 'OTHER' }),
    ]);
  });

  it('shows the campaign rows of a record as CAMPAIGN with the campaign, the reviewer and the comment', async () => {
    const { u, record } = await personWithSafetyReviewer('pvcamp');
    const yearly = { itemId: 1, campaignId: 4711, campaignName: 'Yearly review 2026', decision: 'KEEP' };
    const row = (action: string, actorUsername: string, after: Record<string, unknown>, inSeconds: number) => ({
      actorUsername,
      entityType: 'UserAccess',
      entityId: String(u.user.id),
      action,
      after: { accessId: record.id, ...after },
      workflowId: `access-review-${String(after.campaignId)}`,
      at: new Date(Date.now() + inSeconds * 1000),
    });
    // The rows as the campaigns write them (ACCESS_REVIEW_DECIDED, ACCESS_KEPT_BY_REVIEW, ACCESS_REMOVED_BY_REVIEW):
    // a decision, its outcome at close, and a later campaign's outcome for an item nobody decided (its default).
    const comment = 'Still on the study.';
    await api.prisma.auditEvent.createMany({
      data: [
        row('ACCESS_REVIEW_DECIDED', 'laostaff', { ...yearly, comment }, 1),
        row('ACCESS_KEPT_BY_REVIEW', 'laostaff', { ...yearly, comment, defaulted: false }, 2),
        row('ACCESS_KEPT_BY_REVIEW', 'system', { ...yearly, campaignId: 4712, comment: null, defaulted: true }, 3),
      ],
    });
    const { records } = await provenanceOf(u.user.id);
    expect(records[0]!.events.map((e) => [e.label, e.source, e.actorUsername, e.campaignId, e.comment])).toEqual([
      ['Granted', 'ADMIN_EDIT', 'admin', null, null],
      ['Reviewed: keep', 'CAMPAIGN', 'laostaff', 4711, comment],
      ['Kept by review', 'CAMPAIGN', 'laostaff', 4711, comment],
      ["Kept by review (the campaign's default)", 'CAMPAIGN', 'system', 4712, null],
    ]);
    expect(records[0]!.events[1]).toMatchObject({
      campaignName: 'Yearly review 2026',
      workflowId: 'access-review-4711',
    });
  });
});

describe('grants outside the access-change review (issue 25 provenance)', () => {
  it("shows a registration's approval as REGISTRATION with the registration and its reviewer", async () => {
    const reg = await fileByProxy(api, as.user);
    const userRole = await api.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Network User' } });
    const username = `pvreg${reg.id}`;
    const approved = await call(as.reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
      registrationForm: { id: reg.id, versionno: 0, reviewerComments: 'welcome' },
      portalRoleIds: [userRole.id],
      username,
      gecos: 'Reg Tester',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const created = await api.prisma.portalUser.findUniqueOrThrow({ where: { username } });
    const { records } = await provenanceOf(created.id);
    expect(records).toEqual([
      {
        accessId: expect.any(Number),
        roleName: 'Data Manager',
        events: [
          expect.objectContaining({
            label: 'Granted',
            source: 'REGISTRATION',
            requestId: reg.id,
            actorUsername: 'reviewer',
            workflowId: reg.workflowId,
          }),
        ],
      },
    ]);
  });
});

describe('who may read the provenance (issue 25)', () => {
  it('the person, READ_USERS and a reviewer of an open item of theirs; others 403; an unknown person 404', async () => {
    const { u, record } = await personWithSafetyReviewer('pvperm');
    const self = await signIn(api.app, u.username, u.password);
    const url = provenanceUrl(u.user.id);
    expect((await call(self, 'GET', url)).statusCode).toBe(200);
    expect((await call(as.readonly, 'GET', url)).statusCode).toBe(200);
    expect((await call(as.user, 'GET', url)).statusCode).toBe(403);
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
    // laostaff (LAO Staff of MA036) reviews nobody until an open campaign pools an item of u to MA036.
    expect((await call(as.laostaff, 'GET', url)).statusCode).toBe(403);
    const campaign = await api.prisma.accessReviewCampaign.create({
      data: {
        workflowId: `${taskQueue}-campaign`,
        name: 'Provenance permission',
        scope: {},
        reviewers: 'LAO_STAFF',
        durationDays: 14,
        reminderEveryDays: 7,
        defaultDecision: 'KEEP',
        status: 'OPEN',
        createdByUsername: 'admin',
      },
    });
    const item = (reviewLaoIds: string[]) => ({
      campaignId: campaign.id,
      accessId: record.id,
      portalUserId: u.user.id,
      username: u.username,
      firstName: 'Test',
      lastName: 'pvperm',
      email: u.email,
      roleName: record.roleName,
      siteCodes: [],
      laoIds: reviewLaoIds,
      studyNames: [],
      systemAccessIds: [],
      reviewLaoIds,
    });
    const pooled = await api.prisma.accessReviewItem.create({ data: item(['OTHERLAO']) });
    expect((await call(as.laostaff, 'GET', url)).statusCode).toBe(403);
    await api.prisma.accessReviewItem.update({ where: { id: pooled.id }, data: { reviewLaoIds: ['MA036'] } });
    expect((await call(as.laostaff, 'GET', url)).statusCode).toBe(200);
    // Closed to decisions: the reviewer no longer reads the person's history.
    await api.prisma.accessReviewCampaign.update({ where: { id: campaign.id }, data: { status: 'CLOSED' } });
    expect((await call(as.laostaff, 'GET', url)).statusCode).toBe(403);

    const unknown = (await api.prisma.portalUser.aggregate({ _max: { id: true } }))._max.id! + 1000;
    expect((await call(as.admin, 'GET', provenanceUrl(unknown))).statusCode).toBe(404);
    expect((await call(as.user, 'GET', provenanceUrl(unknown))).statusCode).toBe(403);
    expect((await call(as.admin, 'GET', `${BASE}/user/abc/provenance`)).statusCode).toBe(422);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

it('reads the audit trail in one statement served by indexes, never the whole table', async () => {
  const u = await createTestUser(api, 'pvplan');
  const sql = provenanceAuditSql(u.user.id);
  const plan = await api.prisma.$transaction(
    async (tx) => {
      // As in production, other kinds' rows share the person's id as their entityId (requests, registrations of
      // that number): 20,000 of them, analysed, rolled back after the EXPLAIN. The planner must then read the
      // person's rows through an index range, never the whole table.
      await tx.$executeRaw`
      INSERT INTO "AuditEvent" ("actorUsername", "entityType", "entityId", action)
      SELECT 'plan', (ARRAY['AccessModRequest', 'Registration', 'ProxyBatch'])[1 + g % 3], ${String(u.user.id)}, 'X'
        FROM generate_series(1, 20000) g`;
      await tx.$executeRawUnsafe('ANALYZE "AuditEvent"');
      const rows = await tx.$queryRawUnsafe<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
        `EXPLAIN (FORMAT JSON) ${sql.text}`,
        ...sql.values,
      );
      return rows[0]!['QUERY PLAN'][0]!.Plan;
    },
    { timeout: 30_000 },
  );
  const nodes = nodesOf(plan);
  expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
  // Each branch (the access rows, the registration's approval) reads one short index range. Which index the
  // planner takes follows the statistics: in this small database the audit trail's sort indexes (entityType,
  // id) and (action, id) are as selective as (entityType, entityId), which wins once the table is large. A
  // branch may also combine two of them (a BitmapAnd: seen once with the machine busy): at least one a branch.
  const indexes = nodes.map((n) => n['Index Name']).filter(Boolean);
  expect(indexes.length).toBeGreaterThanOrEqual(2);
  for (const index of indexes)
    expect([
      'AuditEvent_entityType_entityId_idx',
      'AuditEvent_entityType_id_idx',
      'AuditEvent_action_id_idx',
    ]).toContain(index);
});
