/**
 * The API against real PostgreSQL, slapd and a Temporal dev server, with the worker in-process: sign-in,
 * session and XSRF, permission denials, 422 shapes, and an access-change request filed, reviewed (with a
 * stale and an illegal review refused) and approved end to end (issue 2 §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { createTestUser } from './auth-helpers';
import { demoRequestParts } from './fixtures';
import {
  type Session,
  type TestApi,
  caller,
  demoPassword,
  signIn as harnessSignIn,
  startApi,
  startWorker,
} from './harness';

const taskQueue = `api-test-${Date.now()}`;
let api: TestApi;
let app: FastifyInstance;
let prisma: PrismaClient;
let stopWorker: (() => Promise<void>) | undefined;

const password = demoPassword;
const signIn = (username: string): Promise<Session> => harnessSignIn(app, username);
const call = (
  s: Session | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  xsrf = true,
): Promise<LightMyRequestResponse> => caller(app)(s, method, url, payload, { xsrf });

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  ({ app, prisma } = api);
  stopWorker = await startWorker(api, taskQueue);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

describe('sign-in and session (000 §3, §4, §7)', () => {
  it('signs in by username or email, setting an httpOnly session cookie and returning an XSRF token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: 'user@portal.test', password: password('user') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      tokenTimeoutInSeconds: 3600,
      passwordExpiresSoon: false,
      xsrfToken: expect.any(String),
    });
    const cookie = res.cookies.find((c) => c.name === 'pg_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  });

  it('answers a wrong password with credentialsInvalid, the attempts left and the spec message', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: 'readonly', password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      credentialsInvalid: true,
      attemptsLeftUntilLocked: 4,
      message: MESSAGES.signIn.credentialsInvalid,
    });
    // A successful sign-in clears the directory's failure count.
    await signIn('readonly');
  });

  it('answers an unknown user like a wrong password, and empty fields with 422 fieldErrors', async () => {
    const unknown = await app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: 'nobody', password: 'x' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ credentialsInvalid: true, message: MESSAGES.signIn.credentialsInvalid });
    const empty = await app.inject({
      method: 'POST',
      url: '/rest/token/create',
      payload: { username: '', password: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ fieldErrors: { username: ['required'], password: ['required'] }, globalErrors: [] });
  });

  it('refuses secure calls without a session (401), without the XSRF header (403) and after sign-out', async () => {
    const none = await call(null, 'GET', '/rest/secure/user_profile');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'Please sign in' });

    const s = await signIn('user');
    const noXsrf = await call(s, 'GET', '/rest/secure/user_profile', undefined, false);
    expect(noXsrf.statusCode).toBe(403);
    const badXsrf = await call({ ...s, xsrf: 'forged' }, 'GET', '/rest/secure/user_profile');
    expect(badXsrf.statusCode).toBe(403);

    const perms = await call(s, 'GET', '/rest/secure/user_capabilities/granted_permissions');
    expect(perms.json()).toEqual(['USER']);
    expect((await call(s, 'POST', '/rest/secure/token/invalidate')).statusCode).toBe(200);
    expect((await call(s, 'GET', '/rest/secure/user_profile')).statusCode).toBe(401);
  });

  it('denies calls without the permission the spec names (403)', async () => {
    const user = await signIn('user');
    const queue = await call(user, 'GET', '/rest/secure/user_management/user_requests/pending');
    expect(queue.statusCode).toBe(403);
    expect(queue.json()).toEqual({ message: 'You are not authorized to view this page' });

    const readonly = await signIn('readonly');
    expect((await call(readonly, 'GET', '/rest/secure/user_management/user_requests/pending')).statusCode).toBe(200);
    const review = await call(readonly, 'PUT', '/rest/secure/user_management/review_access_change_request', {
      userAccessModificationRequest: { id: 1, versionno: 0, requestStatus: 'IN_PROGRESS' },
    });
    expect(review.statusCode).toBe(403);
  });
});

describe('access-change requests end to end (001 §4, §7)', () => {
  it('answers malformed bodies with 422 fieldErrors and writes nothing', async () => {
    // A requester of its own: other files file requests beside this one, so "nothing written" is counted
    // among the requests this person files or is the subject of.
    const own = await createTestUser(api, 'apibad');
    const s = await harnessSignIn(app, own.username, own.password);
    const ownRequests = () =>
      prisma.accessModRequest.count({
        where: { OR: [{ requesterUserId: own.user.id }, { subjectUserId: own.user.id }] },
      });
    const before = await ownRequests();
    expect(before).toBe(0);
    const bad = await call(s, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: 'me',
      requestType: 'SOMETHING',
      accessControls: [{ roleName: '', studyNames: 'x' }],
      requesterComments: 'c'.repeat(513),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      fieldErrors: {
        portalUserId: ['invalid'],
        requestType: ['invalid'],
        'accessControls[0].roleName': ['required'],
        'accessControls[0].studyNames': ['invalid'],
        requesterComments: ['size'],
      },
      globalErrors: [],
    });
    const notJson = await app.inject({
      method: 'POST',
      url: '/rest/secure/user_access_mod_request',
      headers: { cookie: s.cookie, 'x-xsrf-token': s.xsrf, 'content-type': 'application/json' },
      payload: '{"portalUserId": ',
    });
    expect(notJson.statusCode).toBe(422);
    expect(notJson.json()).toHaveProperty('fieldErrors');
    expect(notJson.body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(await ownRequests()).toBe(before);
  });

  it("enforces the role-block rules on the server with the spec's messages", async () => {
    const s = await signIn('user');
    const { user } = await demoRequestParts(prisma);
    const res = await call(s, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: user.id,
      requestType: 'NEW',
      accessControls: [
        { roleName: 'Site Investigator', siteCodes: [], laoIds: [], studyNames: [], systemAccessIds: [] },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().fieldErrors).toEqual({
      'accessControls[0].siteCodes': [MESSAGES.access.atLeastOneSite],
      'accessControls[0].laoIds': [MESSAGES.access.atLeastOneSite],
      'accessControls[0].studyNames': [MESSAGES.access.atLeastOneStudy],
      'accessControls[0].systemAccessIds': [MESSAGES.access.fixedSystemRequired],
    });
    const other = await call(s, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: user.id + 1,
      requestType: 'NEW',
      accessControls: [{ roleName: 'Data Manager' }],
    });
    expect(other.statusCode).toBe(403);
  });

  it('files, queues, reviews (refusing stale and illegal saves) and approves a request', async () => {
    const userSession = await signIn('user');
    const { user, block } = await demoRequestParts(prisma);
    await prisma.userAccess.updateMany({
      where: { portalUserId: user.id, roleName: block.roleName },
      data: { inactive: true },
    });

    const filed = await call(userSession, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: user.id,
      email: user.email,
      requestType: 'NEW',
      requestStatus: 'NEW',
      accessControls: [block],
      requesterComments: '  Need data access for the new trial  ',
    });
    expect(filed.statusCode).toBe(200);
    const request = filed.json();
    expect(request).toMatchObject({
      requestStatus: 'NEW',
      requestType: 'NEW',
      versionno: 0,
      requesterComments: 'Need data access for the new trial',
      workflowId: `access-change-${request.id}`,
      workflowUrl: expect.stringContaining(`/workflows/access-change-${request.id}`),
    });

    const again = await call(userSession, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: user.id,
      requestType: 'NEW',
      accessControls: [block],
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ fieldErrors: {}, globalErrors: ['REQUEST_IN_PROGRESS'] });

    const reviewer = await signIn('reviewer');
    const queue = await call(
      reviewer,
      'GET',
      '/rest/secure/user_management/user_requests/pending?page=1&size=1000&sort=dateSubmitted,desc',
    );
    expect(queue.statusCode).toBe(200);
    // Among the newest: other files file requests beside this one, so it need not be the first row.
    const rows = queue.json().content as Array<{ id: number; requestStatus: string; firstName: string }>;
    expect(rows.find((r) => r.id === request.id && r.firstName === user.firstName)).toMatchObject({
      requestStatus: 'NEW',
    });
    const badSort = await call(reviewer, 'GET', '/rest/secure/user_management/user_requests/pending?sort=password,asc');
    expect(badSort.statusCode).toBe(422);

    const url = '/rest/secure/user_management/review_access_change_request';
    // The reviewer's save of this request: `fields` besides its id, `rest` the body's other parts.
    const reviewSave = (fields: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
      call(reviewer, 'PUT', url, { ...rest, userAccessModificationRequest: { id: request.id, ...fields } });
    const inProgress = await reviewSave({ versionno: 0, requestStatus: 'IN_PROGRESS', sysaidTicket: 'SR-1234' });
    expect(inProgress.statusCode).toBe(200);
    expect(inProgress.json()).toMatchObject({
      requestStatus: 'IN_PROGRESS',
      versionno: 1,
      sysaidTicket: 'SR-1234',
      lastModifiedBy: 'reviewer',
    });

    const stale = await reviewSave({ versionno: 0, requestStatus: 'REJECTED' });
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toEqual({ fieldErrors: {}, globalErrors: ['STALE_VERSION'] });

    const illegal = await reviewSave({ versionno: 1, requestStatus: 'NEW', sysaidTicket: 'SR-1234' });
    expect(illegal.statusCode).toBe(422);
    expect(Object.keys(illegal.json().fieldErrors)).toEqual(['userAccessModificationRequest.requestStatus']);

    const unchanged = await reviewSave({ versionno: 1, requestStatus: 'IN_PROGRESS', sysaidTicket: 'SR-1234' });
    expect(unchanged.statusCode).toBe(304);

    const tooLong = await reviewSave({
      versionno: 1,
      requestStatus: 'APPROVED',
      reviewerComments: 'x'.repeat(513),
      sysaidTicket: 'x'.repeat(17),
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().fieldErrors).toEqual({
      'userAccessModificationRequest.reviewerComments': ['size'],
      'userAccessModificationRequest.sysaidTicket': ['size'],
    });

    // 'Apply Above Changes' (001 §4): the user's current access with the requested block; approval alone grants nothing.
    const current = await call(reviewer, 'GET', `/rest/secure/user_access/user/${user.id}`);
    const approved = await reviewSave(
      { versionno: 1, requestStatus: 'APPROVED', reviewerComments: 'Granted', sysaidTicket: 'SR-1234' },
      {
        portalUser: {
          id: user.id,
          portalRoleIds: (await call(reviewer, 'GET', `/rest/secure/user_management/user/${user.id}`)).json()
            .portalRoleIds,
        },
        userAccesses: [...current.json().content, block],
      },
    );
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      requestStatus: 'APPROVED',
      versionno: 2,
      reviewerComments: 'Granted',
      allowedNextStatuses: [],
    });

    const history = await call(userSession, 'GET', '/rest/secure/user_access_mod_request/user');
    expect(history.json().content[0]).toMatchObject({ id: request.id, requestStatus: 'APPROVED' });
    const access = await call(userSession, 'GET', '/rest/secure/user_access/user');
    expect(access.json().content.map((a: { roleName: string }) => a.roleName)).toContain(block.roleName);

    const afterClose = await reviewSave({ versionno: 2, requestStatus: 'REJECTED' });
    expect(afterClose.statusCode).toBe(422);
  });

  it('answers an unknown id with 404 and a message, and a bad id with 422', async () => {
    const reviewer = await signIn('reviewer');
    const missing = await call(reviewer, 'GET', '/rest/secure/user_access_mod_request/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Problem loading user-access modification request(s).' });
    const bad = await call(reviewer, 'GET', '/rest/secure/user_access_mod_request/abc');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ id: ['invalid'] });
  });
});
