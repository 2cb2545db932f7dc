/**
 * Profile-change requests through the API on the real stack (001 §2.10, §3, §4, §7 Profile-change requests, §8;
 * 000 §5, §8): every one of the 7 calls with its permission denials, the filing rules (limits 422, no change
 * 304, only for oneself, one outstanding request, 'Email address already exists in database', the internal
 * lock), the reviewer's saves (403, 422 stale / illegal / resolved / id, 304), the queue row, update_user's
 * REQUEST_IN_PROGRESS while a request is open, and an approval applied to the directory entry and the portal user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_ERRORS, PROFILE_CHANGE_MESSAGES, type ProfileChangeRequest } from '@portal/contract';
import { readPersonFields } from '@portal/directory';
import { reconcileUnstartedRequests } from '@portal/worker';
import { type Session, type TestApi, caller, signIn, startApi } from '../harness';
import { uniqueQueue } from '../lifecycle/support';
import { startRegistrationWorker } from '../registrations/support';
import { BASE, askedFor, fileChange, newRequester, reviewCall } from './support';

const taskQueue = uniqueQueue('profile-change-api');
let api: TestApi;
let stopWorker: () => Promise<void>;
let reviewer: Session;
let readonly: Session;
let plain: Session;
let admin: Session;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  stopWorker = await startRegistrationWorker(api, taskQueue);
  call = caller(api.app);
  reviewer = await signIn(api.app, 'reviewer');
  readonly = await signIn(api.app, 'readonly');
  plain = await signIn(api.app, 'user');
  admin = await signIn(api.app, 'admin');
}, 60_000);

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

describe('filing and reading', () => {
  it('files NEW as profile-change-<id> and every read call answers it to whom it may', async () => {
    const r = await newRequester(api, 'pcread');
    const filed = await fileChange(api, r);
    expect(filed).toMatchObject({
      portalUserId: r.user.user.id,
      requestStatus: 'NEW',
      versionno: 0,
      workflowId: `profile-change-${filed.id}`,
      firstName: 'Renamed',
      originalFirstName: 'Test',
      originalEmail: r.user.email,
      requesterComments: 'I married',
    });
    const row = await api.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id: filed.id } });
    expect(row.workflowStartedAt).not.toBeNull();

    const ids = (res: { json(): { content: ProfileChangeRequest[] } }) => res.json().content.map((c) => c.id);
    // Own: /user, /user/{own id}, /{id}.
    expect(ids(await call(r.session, 'GET', `${BASE}/user`))).toEqual([filed.id]);
    expect(ids(await call(r.session, 'GET', `${BASE}/user/${r.user.user.id}`))).toEqual([filed.id]);
    expect((await call(r.session, 'GET', `${BASE}/${filed.id}`)).json().id).toBe(filed.id);
    // Another plain user: 404 like an unknown request or user, 403 for the reviewers' lists.
    const hidden = await call(plain, 'GET', `${BASE}/${filed.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: PROFILE_CHANGE_MESSAGES.loadFailed });
    expect((await call(plain, 'GET', `${BASE}/999999999`)).json()).toEqual(hidden.json());
    for (const userId of [r.user.user.id, 2147483000]) {
      const list = await call(plain, 'GET', `${BASE}/user/${userId}`);
      expect(list.statusCode).toBe(404);
      expect(list.json()).toEqual({ message: PROFILE_CHANGE_MESSAGES.loadFailed });
    }
    expect((await call(readonly, 'GET', `${BASE}/user/2147483000`)).statusCode).toBe(404);
    expect((await call(plain, 'GET', BASE)).statusCode).toBe(403);
    expect((await call(plain, 'GET', `${BASE}/status/pending`)).statusCode).toBe(403);
    expect((await call(null, 'GET', `${BASE}/user`)).statusCode).toBe(401);
    // READ_USERS reads everything.
    expect((await call(readonly, 'GET', `${BASE}/${filed.id}`)).statusCode).toBe(200);
    expect(ids(await call(readonly, 'GET', `${BASE}/user/${r.user.user.id}`))).toEqual([filed.id]);
    expect(ids(await call(readonly, 'GET', BASE))).toContain(filed.id);
    expect(ids(await call(readonly, 'GET', `${BASE}/status/pending`))).toContain(filed.id);
    expect(ids(await call(readonly, 'GET', `${BASE}/status/NEW`))).toContain(filed.id);
    expect(ids(await call(readonly, 'GET', `${BASE}/status/APPROVED`))).not.toContain(filed.id);
    expect((await call(readonly, 'GET', `${BASE}/status/SOMETHING`)).statusCode).toBe(422);

    // The User Requests queue lists it with the user as the portal knows them.
    const queue = await call(reviewer, 'GET', '/rest/secure/user_management/user_requests/pending?size=1000');
    expect(queue.json().content).toContainEqual(
      expect.objectContaining({
        userRequestType: 'PROFILE_CHANGE',
        id: filed.id,
        requestType: null,
        requestStatus: 'NEW',
        email: r.user.email,
      }),
    );
  });

  it('refuses: limits 422, the same values 304, another user 403, a second outstanding request, a taken email', async () => {
    const r = await newRequester(api, 'pcrules');
    const post = (body: unknown) => call(r.session, 'POST', BASE, body);
    const bad = await post({ firstName: '', lastName: 'l'.repeat(46), email: 'not-an-email' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toMatchObject({
      firstName: ['required'],
      lastName: ['size'],
      email: ['validEmail'],
    });
    expect(
      (await post({ ...askedFor(r), requesterComments: 'c'.repeat(513) })).json().fieldErrors.requesterComments,
    ).toEqual(['size']);
    expect((await post({ firstName: 'Test', lastName: 'pcrules', email: r.user.email })).statusCode).toBe(304);
    // Trimmed on save (001 §5): surrounding spaces are no change either.
    expect((await post({ firstName: ' Test ', lastName: 'pcrules ', email: r.user.email })).statusCode).toBe(304);
    expect((await post({ ...askedFor(r), portalUserId: r.user.user.id + 1 })).statusCode).toBe(403);
    const taken = await post(askedFor(r, { email: 'USER@portal.test' }));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().fieldErrors).toEqual({ email: [PROFILE_CHANGE_MESSAGES.emailInUse] });
    expect((await call(null, 'POST', BASE, askedFor(r))).statusCode).toBe(401);

    await fileChange(api, r, { portalUserId: r.user.user.id });
    const second = await post(askedFor(r, { firstName: 'Again' }));
    expect(second.statusCode).toBe(422);
    expect(second.json().globalErrors).toEqual([GLOBAL_ERRORS.requestInProgress]);
    expect(await api.prisma.profileChangeRequest.count({ where: { portalUserId: r.user.user.id } })).toBe(1);
  });

  it('two submissions at once file one request', async () => {
    const r = await newRequester(api, 'pcrace');
    const answers = await Promise.all([
      call(r.session, 'POST', BASE, askedFor(r)),
      call(r.session, 'POST', BASE, askedFor(r, { firstName: 'Other' })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    expect(await api.prisma.profileChangeRequest.count({ where: { portalUserId: r.user.user.id } })).toBe(1);
  });

  it('files the request when the workflow cannot be started, and the reconciler starts it (rule 1)', async () => {
    const cut = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_ADDRESS: '127.0.0.1:9' });
    const r = await newRequester(cut, 'pcreconcile');
    let filed: ProfileChangeRequest;
    try {
      filed = await fileChange(cut, r);
    } finally {
      await cut.close();
    }
    expect(await api.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
      workflowStartedAt: null,
    });
    const repaired = await reconcileUnstartedRequests({
      prisma: api.prisma,
      client: api.deps.temporal,
      taskQueue,
      graceMs: 0,
    });
    expect(repaired).toContain(filed.workflowId);
    const approved = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' });
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it("locks an internal account's name and email (000 §5)", async () => {
    const res = await call(reviewer, 'POST', BASE, {
      firstName: 'Changed',
      lastName: 'Reviewer',
      email: 'x@portal.test',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().fieldErrors).toEqual({ firstName: ['internal'], email: ['internal'] });
  });
});

describe('review', () => {
  it('refuses without WRITE_USERS, a wrong id, a stale version, NEW again, no change; saves comments; approves', async () => {
    const r = await newRequester(api, 'pcreview');
    const filed = await fileChange(api, r);
    const save = (s: Session, body: Parameters<typeof reviewCall>[3]) => reviewCall(api, s, filed, body);
    expect((await save(readonly, { versionno: 0, requestStatus: 'IN_PROGRESS' })).statusCode).toBe(403);
    expect((await save(r.session, { versionno: 0, requestStatus: 'APPROVED' })).statusCode).toBe(403);
    const wrongId = await call(reviewer, 'PUT', `${BASE}/${filed.id}`, {
      id: filed.id + 1,
      versionno: 0,
      requestStatus: 'IN_PROGRESS',
    });
    expect(wrongId.statusCode).toBe(422);
    expect(wrongId.json().fieldErrors).toEqual({ id: ['invalid'] });
    const tooLong = await save(reviewer, { versionno: 0, requestStatus: 'IN_PROGRESS', sysaidTicket: 't'.repeat(17) });
    expect(tooLong.json().fieldErrors).toEqual({ sysaidTicket: ['size'] });
    expect(
      (await call(reviewer, 'PUT', `${BASE}/999999999`, { id: 999999999, versionno: 0, requestStatus: 'NEW' }))
        .statusCode,
    ).toBe(404);

    const progress = await save(reviewer, { versionno: 0, requestStatus: 'IN_PROGRESS', reviewerComments: 'checking' });
    expect(progress.statusCode, progress.body).toBe(200);
    expect(progress.json()).toMatchObject({ requestStatus: 'IN_PROGRESS', versionno: 1, lastModifiedBy: 'reviewer' });
    const stale = await save(reviewer, { versionno: 0, requestStatus: 'PENDING_REVIEW' });
    expect(stale.statusCode).toBe(422);
    expect(stale.json().globalErrors).toEqual([GLOBAL_ERRORS.staleVersion]);
    const backToNew = await save(reviewer, { versionno: 1, requestStatus: 'NEW', reviewerComments: 'checking' });
    expect(backToNew.statusCode).toBe(422);
    expect(Object.keys(backToNew.json().fieldErrors)).toEqual(['requestStatus']);
    expect(
      (await save(reviewer, { versionno: 1, requestStatus: 'IN_PROGRESS', reviewerComments: 'checking' })).statusCode,
    ).toBe(304);

    // While the request is open the user's own update is refused (000 §8), with any change.
    const detail = (await call(admin, 'GET', `/rest/secure/user_management/user/${r.user.user.id}`)).json();
    const blocked = await call(admin, 'PUT', '/rest/secure/user_management/update_user', {
      ...detail,
      jobTitle: 'New',
    });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().globalErrors).toEqual([GLOBAL_ERRORS.requestInProgress]);

    const approved = await save(reviewer, {
      versionno: 1,
      requestStatus: 'APPROVED',
      reviewerComments: 'done',
      sysaidTicket: 'T-42',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ requestStatus: 'APPROVED', versionno: 2, allowedNextStatuses: [] });
    const asked = askedFor(r);
    expect(await readPersonFields(api.directory, r.user.user.uuid!)).toMatchObject({
      firstName: asked.firstName,
      lastName: asked.lastName,
      email: asked.email,
      username: r.user.username,
    });
    expect(await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } })).toMatchObject({
      firstName: asked.firstName,
      lastName: asked.lastName,
      email: asked.email,
    });
    // The user signs in with the new email.
    await signIn(api.app, asked.email, r.user.password);

    const locked = await save(reviewer, { versionno: 2, requestStatus: 'REJECTED' });
    expect(locked.statusCode).toBe(422);
    expect(Object.keys(locked.json().fieldErrors)).toEqual(['requestStatus']);
    // Resolved: the user can be updated again, and can file a new request.
    const fresh = (await call(admin, 'GET', `/rest/secure/user_management/user/${r.user.user.id}`)).json();
    expect(
      (await call(admin, 'PUT', '/rest/secure/user_management/update_user', { ...fresh, jobTitle: 'New' })).statusCode,
    ).toBe(200);
    await fileChange(api, r, { firstName: 'Third' });
  });

  it('rejection changes nothing; an email taken since filing is refused before the update', async () => {
    const r = await newRequester(api, 'pcreject');
    const filed = await fileChange(api, r);
    const rejected = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'REJECTED' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } })).toMatchObject({
      firstName: 'Test',
      email: r.user.email,
    });
    expect(await readPersonFields(api.directory, r.user.user.uuid!)).toMatchObject({ email: r.user.email });

    const second = await fileChange(api, r);
    const other = await newRequester(api, 'pctaker');
    await api.prisma.portalUser.update({ where: { id: other.user.user.id }, data: { email: second.email } });
    const refused = await reviewCall(api, reviewer, second, { versionno: 0, requestStatus: 'APPROVED' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fieldErrors).toEqual({ email: [PROFILE_CHANGE_MESSAGES.emailInUse] });
    const row = await api.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id: second.id } });
    expect(row).toMatchObject({ requestStatus: 'NEW', versionno: 0 });
    // It can still be rejected.
    expect((await reviewCall(api, reviewer, second, { versionno: 0, requestStatus: 'REJECTED' })).statusCode).toBe(200);
  });
});
