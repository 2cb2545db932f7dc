/**
 * Access records and the review that writes them (000 §7 User access records and
 * review_access_change_request; 001 §2.8, §4) against real PostgreSQL, OpenLDAP and Temporal with an
 * in-process worker: every user_access call with its permission and denials, 304, field errors, stale
 * versions and REQUEST_IN_PROGRESS; the review PUT with the 000 §7 body (portal roles and access written
 * with the request row), its 304, `userAccesses[i]` field errors, the request rules, permission denials, and
 * a commit meeting the worker's PostgreSQL stopped or frozen (a fault proxy, issue 21) that leaves roles,
 * access and request unchanged until it succeeds once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, USER_ACCESS_MESSAGES, type UserAccess } from '@portal/contract';
import { type TestUser, createTestUser } from './auth-helpers';
import { type DatabaseBehindProxy, openDatabaseBehindProxy } from '../support/database-fault';
import { FAULTS, faultName } from '../support/fault-proxy';
import { pendingActivity } from '../support/pending-activity';
import { roleBlockOf, stackEnv, systemsOfRole } from './fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from './harness';
import { until } from './lifecycle/support';

const taskQueue = `access-review-${Date.now()}`;
const BASE = '/rest/secure/user_access';
const REVIEW = '/rest/secure/user_management/review_access_change_request';
let api: TestApi;
let call: ReturnType<typeof caller>;
let admin: Session;
let reviewer: Session;
let readonly: Session;
let plain: Session;
/** The worker's PostgreSQL, behind a fault proxy: stopped or frozen, its commits cannot complete. */
let database: DatabaseBehindProxy;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, REVIEW_DEADLINE_MS: '4000' });
  call = caller(api.app);
  database = await openDatabaseBehindProxy(stackEnv().DATABASE_URL!);
  stopWorker = await startWorker(api, taskQueue, { prisma: database.prisma });
  admin = await signIn(api.app, 'admin');
  reviewer = await signIn(api.app, 'reviewer');
  readonly = await signIn(api.app, 'readonly');
  plain = await signIn(api.app, 'user');
});
afterAll(async () => {
  database?.proxy.heal();
  await stopWorker?.();
  await database?.close();
  await api?.close();
});

const systemsOf = (roleName: string) => systemsOfRole(api.prisma, roleName);
const blockOf = (roleName: string, extra: Record<string, unknown> = {}) => roleBlockOf(api.prisma, roleName, extra);
const activeOf = (u: TestUser) =>
  api.prisma.userAccess.findMany({ where: { portalUserId: u.user.id, inactive: false }, orderBy: { roleName: 'asc' } });
const rolesOf = async (u: TestUser) =>
  (await api.prisma.portalUserRole.findMany({ where: { portalUserId: u.user.id } }))
    .map((r) => r.portalRoleId)
    .sort((a, b) => a - b);

describe('user access records (000 §7)', () => {
  it('creates, reads, versions, lists and removes records with WRITE_USERS / READ_USERS, refusing others', async () => {
    const u = await createTestUser(api, 'uacrud');
    const dm = await blockOf('Data Manager');

    // POST: permission, rules (keys name the body's fields), unknown user, then created.
    expect((await call(readonly, 'POST', BASE, { ...dm, portalUserId: u.user.id })).statusCode).toBe(403);
    expect((await call(null, 'POST', BASE, { ...dm, portalUserId: u.user.id })).statusCode).toBe(401);
    const invalid = await call(reviewer, 'POST', BASE, { ...dm, studyNames: [], portalUserId: u.user.id });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().fieldErrors).toEqual({ studyNames: ['At least one study is required'] });
    const noUser = await call(reviewer, 'POST', BASE, { ...dm, portalUserId: 2_000_000_000 });
    expect(noUser.statusCode).toBe(404);
    const created = await call(reviewer, 'POST', BASE, { ...dm, portalUserId: u.user.id });
    expect(created.statusCode, created.body).toBe(200);
    const record: UserAccess = created.json();
    expect(record).toMatchObject({ portalUserId: u.user.id, roleName: 'Data Manager', versionno: 1, inactive: false });
    const twice = await call(reviewer, 'POST', BASE, { ...dm, portalUserId: u.user.id });
    expect(twice.json().fieldErrors).toEqual({ roleName: ['unique'] });

    // GET one, GET the user's, GET all: READ_USERS; a plain user is refused.
    expect((await call(readonly, 'GET', `${BASE}/${record.id}`)).json()).toMatchObject({ id: record.id });
    expect((await call(plain, 'GET', `${BASE}/${record.id}`)).statusCode).toBe(403);
    const missing = await call(readonly, 'GET', `${BASE}/2000000000`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: USER_ACCESS_MESSAGES.loadRecordsFailed });
    expect((await call(readonly, 'GET', `${BASE}/user/${u.user.id}`)).json().content).toHaveLength(1);
    expect((await call(plain, 'GET', `${BASE}/user/${u.user.id}`)).statusCode).toBe(403);
    const all = await call(readonly, 'GET', BASE);
    expect(all.statusCode).toBe(200);
    expect((all.json() as UserAccess[]).some((r) => r.id === record.id)).toBe(true);
    expect((await call(plain, 'GET', BASE)).statusCode).toBe(403);

    // PUT /{id}: a new version; 304 unchanged; stale version; role change refused; READ_USERS refused.
    const withSite = { ...dm, siteCodes: ['MA036'], versionno: 1 };
    expect((await call(readonly, 'PUT', `${BASE}/${record.id}`, withSite)).statusCode).toBe(403);
    expect((await call(reviewer, 'PUT', `${BASE}/${record.id}`, { ...dm, versionno: 1 })).statusCode).toBe(304);
    const v2 = await call(reviewer, 'PUT', `${BASE}/${record.id}`, withSite);
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json()).toMatchObject({
      versionno: 2,
      siteCodes: ['MA036'],
      priorAccessControlId: record.id,
      originalRevisionNumber: record.id,
    });
    const stale = await call(reviewer, 'PUT', `${BASE}/${record.id}`, withSite);
    expect(stale.json()).toEqual({ fieldErrors: {}, globalErrors: ['STALE_VERSION'] });
    const renamed = await call(reviewer, 'PUT', `${BASE}/${v2.json().id}`, {
      ...withSite,
      roleName: 'LAO Staff',
      versionno: 2,
    });
    expect(renamed.json().fieldErrors).toEqual({ roleName: ['invalid'] });

    // GET /{id}/{revisionNo}: any record of the chain names it.
    expect((await call(readonly, 'GET', `${BASE}/${v2.json().id}/1`)).json()).toMatchObject({ id: record.id });
    expect((await call(readonly, 'GET', `${BASE}/${record.id}/2`)).json()).toMatchObject({ id: v2.json().id });
    expect((await call(readonly, 'GET', `${BASE}/${record.id}/3`)).statusCode).toBe(404);
    expect((await call(plain, 'GET', `${BASE}/${record.id}/1`)).statusCode).toBe(403);
    expect((await call(null, 'GET', `${BASE}/${record.id}/1`)).statusCode).toBe(401);

    // inactive: true removes the access, as an inactive version 3.
    const removed = await call(reviewer, 'PUT', `${BASE}/${v2.json().id}`, {
      ...withSite,
      versionno: 2,
      inactive: true,
    });
    expect(removed.json()).toMatchObject({ versionno: 3, inactive: true });
    expect(await activeOf(u)).toHaveLength(0);
    const audit = await api.prisma.auditEvent.findMany({
      where: { entityType: 'UserAccess', entityId: String(u.user.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => a.action)).toEqual(['ACCESS_CREATED', 'ACCESS_UPDATED', 'ACCESS_REMOVED']);
  });

  it('replaces a user’s access with PUT user/{portalUserId}: 304, userAccesses[i] errors, REQUEST_IN_PROGRESS', async () => {
    const u = await createTestUser(api, 'uareplace');
    const url = `${BASE}/user/${u.user.id}`;
    const dm = await blockOf('Data Manager');
    const sr = await blockOf('Safety Reviewer');
    expect((await call(readonly, 'PUT', url, { userAccesses: [dm] })).statusCode).toBe(403);
    const first = await call(admin, 'PUT', url, { userAccesses: [dm, sr] });
    expect(first.statusCode, first.body).toBe(200);
    const content: UserAccess[] = first.json().content;
    expect(content.map((r) => r.roleName)).toEqual(['Data Manager', 'Safety Reviewer']);
    // The records sent back as read: nothing changes.
    expect((await call(admin, 'PUT', url, { userAccesses: content })).statusCode).toBe(304);

    const bad = await call(admin, 'PUT', url, {
      userAccesses: [content[0], { ...sr, roleName: 'No Such Role' }, { ...dm }],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toMatchObject({
      'userAccesses[1].roleName': ['unknown'],
      'userAccesses[2].roleName': ['unique'],
    });
    const stranger = await call(admin, 'PUT', url, { userAccesses: [{ ...dm, portalUserId: u.user.id + 1 }] });
    expect(stranger.json().fieldErrors).toEqual({ 'userAccesses[0].portalUserId': ['invalid'] });

    // Dropping a role removes it; the kept one is untouched.
    const second = await call(admin, 'PUT', url, { userAccesses: [content[1]] });
    expect(second.json().content.map((r: UserAccess) => r.id)).toEqual([content[1]!.id]);
    // A record sent at a version that is no longer active is stale.
    const stale = await call(admin, 'PUT', url, { userAccesses: content });
    expect(stale.json().globalErrors).toEqual(['STALE_VERSION']);

    // A record granted under older rules (here: an AO no longer listed) is kept as it is, not judged again.
    await api.prisma.userAccess.create({
      data: {
        portalUserId: u.user.id,
        roleName: 'Research Pharmacist',
        siteCodes: ['NO-SUCH-AO'],
        systemAccessIds: await systemsOf('Research Pharmacist'),
        createdBy: 'legacy',
        lastModifiedBy: 'legacy',
      },
    });
    const asRead = (await call(admin, 'GET', `${BASE}/user/${u.user.id}`)).json().content;
    expect((await call(admin, 'PUT', url, { userAccesses: asRead })).statusCode).toBe(304);

    // An open access-change request blocks every admin writer (000 §8).
    const session = await signIn(api.app, u.username, u.password);
    const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'NEW',
      accessControls: [dm],
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const blocked = await call(admin, 'PUT', url, { userAccesses: [] });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json()).toEqual({ fieldErrors: {}, globalErrors: ['REQUEST_IN_PROGRESS'] });
    expect((await call(admin, 'POST', BASE, { ...dm, portalUserId: u.user.id })).json().globalErrors).toEqual([
      'REQUEST_IN_PROGRESS',
    ]);
  });
});

describe('review_access_change_request (000 §7; 001 §2.8)', () => {
  /** A fresh user with one Safety Reviewer record and a NEW request for Data Manager. */
  async function filedRequest(tag: string) {
    const u = await createTestUser(api, tag);
    const sr = await blockOf('Safety Reviewer');
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, { userAccesses: [sr] });
    const session = await signIn(api.app, u.username, u.password);
    const dm = await blockOf('Data Manager');
    const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'NEW',
      accessControls: [dm],
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const current: UserAccess[] = (await call(reviewer, 'GET', `${BASE}/user/${u.user.id}`)).json().content;
    return { u, dm, current, request: filed.json() as { id: number; versionno: number } };
  }
  const body = (id: number, versionno: number, requestStatus: string, extra: Record<string, unknown> = {}) => ({
    ...extra,
    userAccessModificationRequest: { id, versionno, requestStatus, reviewerComments: '', sysaidTicket: '' },
  });

  it('writes the portal roles, the access and the request together; 304; field errors; the request rules', async () => {
    const { u, dm, current, request } = await filedRequest('rvbody');
    const selfService = await api.prisma.portalRole.findUniqueOrThrow({
      where: { description: 'Password Self-Service' },
    });
    const roles = [...(await rolesOf(u)), selfService.id];

    // Nothing differs: 304 before any update.
    const same = await call(reviewer, 'PUT', REVIEW, body(request.id, 0, 'NEW', { userAccesses: current }));
    expect(same.statusCode).toBe(304);
    // Field errors of the records, keyed userAccesses[i] (001 §5), before the update.
    const bad = await call(
      reviewer,
      'PUT',
      REVIEW,
      body(request.id, 0, 'IN_PROGRESS', { userAccesses: [...current, { ...dm, studyNames: [] }] }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ 'userAccesses[1].studyNames': ['At least one study is required'] });
    // Another user's id in the body.
    const wrongUser = await call(
      reviewer,
      'PUT',
      REVIEW,
      body(request.id, 0, 'IN_PROGRESS', { portalUser: { id: u.user.id + 1, portalRoleIds: roles } }),
    );
    expect(wrongUser.json().fieldErrors).toEqual({ 'portalUser.id': ['invalid'] });
    // Permissions: READ_USERS may not save; WRITE_USERS may not give an ADMIN role.
    const ro = await call(readonly, 'PUT', REVIEW, body(request.id, 0, 'IN_PROGRESS'));
    expect(ro.statusCode).toBe(403);
    const adminRole = await api.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Administrator' } });
    const escalate = await call(
      reviewer,
      'PUT',
      REVIEW,
      body(request.id, 0, 'IN_PROGRESS', { portalUser: { id: u.user.id, portalRoleIds: [...roles, adminRole.id] } }),
    );
    expect(escalate.statusCode).toBe(403);
    expect(await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      versionno: 0,
      requestStatus: 'NEW',
    });

    // Apply Above Changes + a portal role, saved IN_PROGRESS: effective at once, in one commit.
    const saved = await call(
      reviewer,
      'PUT',
      REVIEW,
      body(request.id, 0, 'IN_PROGRESS', {
        portalUser: { id: u.user.id, portalRoleIds: roles },
        userAccesses: [...current, dm],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ requestStatus: 'IN_PROGRESS', versionno: 1 });
    expect((await activeOf(u)).map((a) => a.roleName)).toEqual(['Data Manager', 'Safety Reviewer']);
    expect(await rolesOf(u)).toEqual([...roles].sort((a, b) => a - b));
    const written = await api.prisma.auditEvent.findFirstOrThrow({
      where: { idempotencyKey: `access-change-${request.id}:1:apply` },
    });
    expect(written.action).toBe('ACCESS_UPDATED');

    // NEW can no longer be chosen; a stale version is refused.
    const backToNew = await call(reviewer, 'PUT', REVIEW, body(request.id, 1, 'NEW'));
    expect(Object.keys(backToNew.json().fieldErrors)).toEqual(['userAccessModificationRequest.requestStatus']);
    const stale = await call(reviewer, 'PUT', REVIEW, body(request.id, 0, 'REJECTED'));
    expect(stale.json().globalErrors).toEqual(['STALE_VERSION']);

    // Approved without further changes: nothing more is written; then the request is locked.
    const approved = await call(reviewer, 'PUT', REVIEW, body(request.id, 1, 'APPROVED'));
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ requestStatus: 'APPROVED', allowedNextStatuses: [] });
    const locked = await call(reviewer, 'PUT', REVIEW, body(request.id, 2, 'REJECTED'));
    expect(locked.statusCode).toBe(422);
    // With the request resolved, the admin's Access tab may write again.
    const now: UserAccess[] = (await call(admin, 'GET', `${BASE}/user/${u.user.id}`)).json().content;
    expect((await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, { userAccesses: now })).statusCode).toBe(304);
  });

  for (const fault of FAULTS) {
    it(`leaves roles, access and request unchanged while the database is ${faultName(fault)}, then writes them once`, async () => {
      const { u, dm, current, request } = await filedRequest(`rv${fault}`);
      const rolesBefore = await rolesOf(u);
      const accessBefore = await activeOf(u);
      const roles = [
        ...rolesBefore,
        (await api.prisma.portalRole.findUniqueOrThrow({ where: { description: 'Password Self-Service' } })).id,
      ];
      const { proxy } = database;
      const handle = api.deps.temporal.workflow.getHandle(`access-change-${request.id}`);
      proxy.fail(fault);
      try {
        const attemptKey = `fault-attempt-${fault}`;
        const save = () =>
          call(
            reviewer,
            'PUT',
            REVIEW,
            body(request.id, 0, 'APPROVED', {
              portalUser: { id: u.user.id, portalRoleIds: roles },
              userAccesses: [...current, dm],
              attemptKey,
            }),
          );
        const pending = await save();
        expect(pending.statusCode).toBe(202);
        expect(pending.json()).toMatchObject({ status: 'PROCESSING', message: MESSAGES.access.reviewProcessing });
        // Stopped: the commit's attempts failed and it is retried; frozen: its attempt waits on the database.
        await until(
          async () =>
            fault === 'refuse'
              ? ((await pendingActivity(handle, 'commitSave'))?.lastFailure ?? '') !== ''
              : proxy.held() > 0 && (await pendingActivity(handle, 'commitSave')) !== undefined,
          fault === 'refuse' ? 'a failed commit attempt' : 'the commit waiting on the frozen database',
        );
        // Nothing is written meanwhile: the roles, the records and the request row are as they were.
        expect(await rolesOf(u)).toEqual(rolesBefore);
        expect((await activeOf(u)).map((a) => [a.id, a.versionno])).toEqual(
          accessBefore.map((a) => [a.id, a.versionno]),
        );
        expect(await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
          requestStatus: 'NEW',
          versionno: 0,
        });
        proxy.heal();
        // The save still running commits once the database answers again.
        await until(
          async () =>
            (await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id: request.id } })).versionno === 1,
          'the approval committed',
          30_000,
        );
        // The browser's retry of the same attempt is answered the saved request.
        const retried = await save();
        expect(retried.statusCode, retried.body).toBe(200);
        expect(retried.json()).toMatchObject({ requestStatus: 'APPROVED', versionno: 1 });
      } finally {
        proxy.heal();
      }
      expect(await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
        requestStatus: 'APPROVED',
        versionno: 1,
      });
      expect(await rolesOf(u)).toEqual([...roles].sort((a, b) => a - b));
      expect((await activeOf(u)).map((a) => a.roleName)).toEqual(['Data Manager', 'Safety Reviewer']);
      const workflowId = `access-change-${request.id}`;
      expect(await api.prisma.auditEvent.count({ where: { workflowId, action: 'ACCESS_UPDATED' } })).toBe(1);
      expect(await api.prisma.auditEvent.count({ where: { workflowId, action: 'STATUS_APPROVED' } })).toBe(1);
    });
  }
});
