/**
 * Configure → Approval policies and a study's approvers (docs/decisions.md "Approval policies";
 * api/src/features/approval-policies) against real PostgreSQL: READ_USERS reads, ADMIN changes, a reviewer
 * (WRITE_USERS) and a plain user are refused, nobody signed out; create, update at `versionno` (stale, 304,
 * 404), delete (`{}`); the 422s (unknown role or system, a system not of the role, a duplicate, the body's own
 * rules); one audit row per change; the studies with ids; a study's approvers replaced (unknown or inactive
 * users refused). Study roles and studies are the test's own, so no seeded record changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_TEXTS, GLOBAL_ERRORS } from '@portal/contract';
import { auditRowsOf, createTestUser, signIn, unique, useConfigApi, type Session } from '../config-support';

const POLICIES = '/rest/secure/system_mgmt/approval_policies';
const approvers = (studyId: number) => `/rest/secure/system_mgmt/study/${studyId}/approvers`;
const { api, call, admin, readonly, user } = useConfigApi();
let reviewer: Session;
let fixedId: number;
let edcId: number;

beforeAll(async () => {
  reviewer = await signIn(api.app, 'reviewer');
  fixedId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
  edcId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { systemName: 'Electronic Data Capture' } })).id;
});

/** A study role of the test's own with the fixed system and EDC. */
const newRole = (tag: string) =>
  api.prisma.studyRole.create({
    data: {
      roleName: unique(`Approval ${tag}`),
      description: 'test',
      systems: { create: [{ systemId: fixedId }, { systemId: edcId }] },
    },
  });

const stage = (approvers: 'LAO_STAFF' | 'STUDY_APPROVERS', extra: Record<string, unknown> = {}) => ({
  approvers,
  deadlineDays: 5,
  reminderDays: 2,
  escalateTo: 'USER_SUPPORT',
  ...extra,
});

describe('approval policies: permissions', () => {
  it('needs READ_USERS to read, ADMIN to change, and a session for all', async () => {
    const role = await newRole('Perm');
    const body = { studyRoleId: role.id, stages: [stage('LAO_STAFF')] };
    const changing: Array<['POST' | 'PUT' | 'DELETE', string, unknown]> = [
      ['POST', POLICIES, body],
      ['PUT', `${POLICIES}/1`, { ...body, versionno: 0 }],
      ['DELETE', `${POLICIES}/1`, undefined],
      ['PUT', approvers(1), { userIds: [] }],
    ];
    for (const [method, url, payload] of changing) {
      expect((await call(null, method, url, payload)).statusCode, `${method} ${url}`).toBe(401);
      for (const denied of [user, readonly, reviewer]) {
        expect((await call(denied, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      }
    }
    for (const url of [POLICIES, '/rest/secure/system_mgmt/studies', approvers(1)]) {
      expect((await call(null, 'GET', url)).statusCode, url).toBe(401);
      expect((await call(user, 'GET', url)).statusCode, url).toBe(403);
    }
    expect((await call(readonly, 'GET', POLICIES)).statusCode).toBe(200);
    expect(await api.prisma.approvalPolicy.count({ where: { studyRoleId: role.id } })).toBe(0);
  });
});

describe('approval policies: create, update, delete', () => {
  it('creates, lists, updates at versionno and deletes, one audit row per change', async () => {
    const role = await newRole('Crud');
    const created = await call(admin, 'POST', POLICIES, {
      studyRoleId: role.id,
      systemAccessId: edcId,
      stages: [stage('LAO_STAFF'), stage('STUDY_APPROVERS', { escalateTo: 'LAO_STAFF' })],
    });
    expect(created.statusCode, created.body).toBe(200);
    const policy = created.json();
    expect(policy).toMatchObject({
      studyRoleId: role.id,
      roleName: role.roleName,
      systemAccessId: edcId,
      systemName: 'Electronic Data Capture',
      active: true,
      versionno: 0,
      lastModifiedBy: 'admin',
    });
    expect(policy.stages).toEqual([stage('LAO_STAFF'), stage('STUDY_APPROVERS', { escalateTo: 'LAO_STAFF' })]);
    const listed = await call(readonly, 'GET', POLICIES);
    expect(listed.json()).toContainEqual(policy);

    const change = { studyRoleId: role.id, systemAccessId: edcId, stages: [stage('LAO_STAFF', { deadlineDays: 9 })] };
    const stale = await call(admin, 'PUT', `${POLICIES}/${policy.id}`, { ...change, versionno: 3 });
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toEqual({ fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.staleVersion] });
    const same = await call(admin, 'PUT', `${POLICIES}/${policy.id}`, {
      studyRoleId: role.id,
      systemAccessId: edcId,
      stages: policy.stages,
      versionno: 0,
    });
    expect(same.statusCode).toBe(304);
    const updated = await call(admin, 'PUT', `${POLICIES}/${policy.id}`, { ...change, versionno: 0 });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      id: policy.id,
      versionno: 1,
      stages: [stage('LAO_STAFF', { deadlineDays: 9 })],
    });
    const unknown = await call(admin, 'PUT', `${POLICIES}/999999`, { ...change, versionno: 0 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: APPROVAL_TEXTS.loadPolicy });

    const deleted = await call(admin, 'DELETE', `${POLICIES}/${policy.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect(await api.prisma.approvalPolicy.findUnique({ where: { id: policy.id } })).toBeNull();
    expect((await call(admin, 'DELETE', `${POLICIES}/${policy.id}`)).statusCode).toBe(404);

    const audit = await auditRowsOf(api.prisma, 'ApprovalPolicy', policy.id);
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(audit.every((a) => a.actorUsername === 'admin')).toBe(true);
    expect(audit[1]!.before).toMatchObject({ versionno: 0 });
    expect(audit[1]!.after).toMatchObject({ versionno: 1 });
  });

  it('refuses unknown roles and systems, a system not of the role, a duplicate and bad stages', async () => {
    const role = await newRole('Rules');
    const other = await api.prisma.systemAccess.create({
      data: { systemName: unique('Approval other'), description: '' },
    });
    const post = (body: Record<string, unknown>) =>
      call(admin, 'POST', POLICIES, { studyRoleId: role.id, stages: [stage('LAO_STAFF')], ...body });
    const expect422 = async (body: Record<string, unknown>, fieldErrors: Record<string, string[]>) => {
      const res = await post(body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().fieldErrors).toEqual(fieldErrors);
    };
    await expect422({ studyRoleId: 999_999 }, { studyRoleId: ['unknown'] });
    await expect422({ systemAccessId: 999_999 }, { systemAccessId: ['unknown'] });
    await expect422({ systemAccessId: other.id }, { systemAccessId: ['invalid'] });
    await expect422(
      { stages: [stage('LAO_STAFF', { reminderDays: 5 })] },
      { 'stages[0].reminderDays': ['beforeDeadline'] },
    );
    await expect422({ stages: [stage('STUDY_APPROVERS'), stage('LAO_STAFF')] }, { stages: ['stageOrder'] });

    expect((await post({})).statusCode).toBe(200);
    await expect422({}, { studyRoleId: ['unique'] });
    // The same role narrowed to one system is another policy.
    expect((await post({ systemAccessId: edcId })).statusCode).toBe(200);
    await expect422({ systemAccessId: edcId }, { studyRoleId: ['unique'] });
    expect(await api.prisma.approvalPolicy.count({ where: { studyRoleId: role.id } })).toBe(2);
  });
});

describe("a study's approvers", () => {
  it('lists studies with ids, replaces the approvers (audited) and refuses unknown or inactive users', async () => {
    const study = await api.prisma.study.create({ data: { study: unique('APPROVAL-STUDY').replace(/\s/g, '-') } });
    const studies = await call(readonly, 'GET', '/rest/secure/system_mgmt/studies');
    expect(studies.statusCode).toBe(200);
    expect(studies.json()).toContainEqual({ id: study.id, study: study.study, active: true });

    expect((await call(readonly, 'GET', approvers(study.id))).json()).toEqual([]);
    expect((await call(admin, 'GET', approvers(999_999))).statusCode).toBe(404);
    const [a, b] = [await createTestUser(api.prisma, 'Appr A'), await createTestUser(api.prisma, 'Appr B')];
    const gone = await api.prisma.portalUser.update({
      where: { id: (await createTestUser(api.prisma, 'Appr C')).id },
      data: { inactive: true },
    });

    const refused = await call(admin, 'PUT', approvers(study.id), { userIds: [a.id, 999_999, gone.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fieldErrors).toEqual({ 'userIds[1]': ['unknown'], 'userIds[2]': ['unknown'] });

    const set = await call(admin, 'PUT', approvers(study.id), { userIds: [b.id, a.id, a.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().map((x: { userId: number }) => x.userId)).toEqual([a.id, b.id]);
    expect(set.json()[0]).toEqual({
      userId: a.id,
      username: a.username,
      firstName: a.firstName,
      lastName: a.lastName,
      email: a.email,
    });
    expect((await call(admin, 'PUT', approvers(study.id), { userIds: [a.id, b.id] })).statusCode).toBe(304);
    const cut = await call(admin, 'PUT', approvers(study.id), { userIds: [b.id] });
    expect(cut.json().map((x: { userId: number }) => x.userId)).toEqual([b.id]);
    expect((await call(readonly, 'GET', approvers(study.id))).json()).toEqual(cut.json());

    const audit = await auditRowsOf(api.prisma, 'Study', study.id);
    expect(audit.map((r) => r.action)).toEqual(['APPROVERS_CHANGED', 'APPROVERS_CHANGED']);
    expect(audit[1]!.before).toEqual({ study: study.study, approvers: [a.username, b.username] });
    expect(audit[1]!.after).toEqual({ study: study.study, approvers: [b.username] });
  });
});
