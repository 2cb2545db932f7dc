/**
 * Registrations through the API on the real stack (001 §2.1-2.4, §7 Registrations, §8): the public form
 * with the ALTCHA captcha (solved, missing, replayed), proxy filing, the lists, a reviewer's save, approval
 * (directory entry, portal user with roles and access, set-password mail), denial (mail), deletion (no
 * mail), each permission denial and each 422 of the approval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES } from '@portal/contract';
import { findPeopleByEmail } from '@portal/directory';
import { SubjectUserIdKey } from '@portal/workflows';
import { waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi } from '../harness';
import { uniqueQueue } from '../lifecycle/support';
import { registrationBody, solvedCaptcha, startRegistrationWorker } from './support';

const taskQueue = uniqueQueue('registrations-api');
let api: TestApi;
let stopWorker: () => Promise<void>;
let reviewer: Session;
let readonly: Session;
let user: Session;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, CAPTCHA_MAX_COUNTER: '2000' });
  stopWorker = await startRegistrationWorker(api, taskQueue);
  call = caller(api.app);
  reviewer = await signIn(api.app, 'reviewer');
  readonly = await signIn(api.app, 'readonly');
  user = await signIn(api.app, 'user');
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

async function filePublic(over: Record<string, unknown> = {}) {
  const body = await registrationBody(api, over);
  const res = await call(null, 'POST', '/rest/public/user_registration', {
    ...body,
    'g-recaptcha-response': await solvedCaptcha(api),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; versionno: number; email: string; workflowId: string };
}

const roleId = async (description: string) =>
  (await api.prisma.portalRole.findFirstOrThrow({ where: { description } })).id;

describe('public registration and its captcha', () => {
  it('files PENDING with a solved captcha and starts registration-<id>', async () => {
    const reg = await filePublic();
    expect(reg.workflowId).toBe(`registration-${reg.id}`);
    const row = await api.prisma.registration.findUniqueOrThrow({ where: { id: reg.id } });
    expect(row.registrationStatus).toBe('PENDING');
    expect(row.workflowStartedAt).not.toBeNull();
  });

  it('answers 422 under the key received when the captcha is missing, wrong or replayed', async () => {
    const body = await registrationBody(api);
    const missing = await call(null, 'POST', '/rest/public/user_registration', body);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().fieldErrors).toEqual({ 'g-recaptcha-response': [REGISTRATION_MESSAGES.captchaRequired] });
    const wrong = await call(null, 'POST', '/rest/public/user_registration', { ...body, captcha: 'nope' });
    expect(wrong.json().fieldErrors).toEqual({ captcha: [REGISTRATION_MESSAGES.captchaRequired] });
    const answer = await solvedCaptcha(api);
    const first = await call(null, 'POST', '/rest/public/user_registration', { ...body, gRecaptchaResponse: answer });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await call(null, 'POST', '/rest/public/user_registration', {
      ...(await registrationBody(api)),
      gRecaptchaResponse: answer,
    });
    expect(replay.json().fieldErrors).toEqual({ gRecaptchaResponse: [REGISTRATION_MESSAGES.captchaRequired] });
  });

  it('refuses bad fields 422 and a second pending registration of one address', async () => {
    const bad = await call(null, 'POST', '/rest/public/user_registration', {
      ...(await registrationBody(api, { email: 'not-an-email', accessControls: [{ roleName: 'No Such Role' }] })),
      'g-recaptcha-response': await solvedCaptcha(api),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors.email).toEqual(['validEmail']);
    const reg = await filePublic();
    const again = await call(null, 'POST', '/rest/public/user_registration', {
      ...(await registrationBody(api, { email: reg.email })),
      'g-recaptcha-response': await solvedCaptcha(api),
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().globalErrors).toEqual(['REQUEST_IN_PROGRESS']);
  });
});

describe('proxy registration and the lists', () => {
  it('files for a signed-in user without captcha and lists it in their proxy history', async () => {
    const res = await call(user, 'POST', '/rest/secure/user_registration', {
      ...(await registrationBody(api)),
      personCompletingThisFormFullName: 'Pat Helper',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ isProxy: true, personCompletingThisFormFullName: 'Pat Helper' });
    const history = await call(user, 'GET', '/rest/secure/user_management/user_registration/proxy');
    expect(history.json().content.map((r: { id: number }) => r.id)).toContain(res.json().id);
    const pending = await call(readonly, 'GET', '/rest/secure/user_registration/status/PENDING');
    expect(pending.statusCode).toBe(200);
    expect(pending.json().size).toBe(300);
    expect(pending.json().content.map((r: { id: number }) => r.id)).toContain(res.json().id);
  });

  it("answers another user's proxy history 404, like the other own-record reads (000 §7, §8)", async () => {
    const userId = async (username: string) =>
      (await api.prisma.portalUser.findUniqueOrThrow({ where: { username } })).id;
    const path = (id: number) => `/rest/secure/user_management/user_registration/proxy/${id}`;
    const own = await call(user, 'GET', path(await userId('user')));
    expect(own.statusCode, own.body).toBe(200);
    const other = await call(user, 'GET', path(await userId('readonly')));
    expect(other.statusCode, other.body).toBe(404);
    expect(other.json()).toEqual({ message: REGISTRATION_MESSAGES.loadUserProxyFailed });
    expect((await call(user, 'GET', path(2147483000))).json()).toEqual(other.json());
    expect((await call(readonly, 'GET', path(2147483000))).statusCode).toBe(404);
    expect((await call(readonly, 'GET', path(await userId('user')))).statusCode).toBe(200);
  });

  it('answers 403 without READ_USERS or WRITE_USERS and 401 without a session', async () => {
    const reg = await filePublic();
    expect((await call(user, 'GET', '/rest/secure/user_registration/status/PENDING')).statusCode).toBe(403);
    expect((await call(user, 'GET', `/rest/secure/user_registration/${reg.id}`)).statusCode).toBe(403);
    expect((await call(user, 'GET', '/rest/secure/user_management/account_types')).statusCode).toBe(403);
    expect((await call(readonly, 'DELETE', `/rest/secure/user_registration/${reg.id}`)).statusCode).toBe(403);
    expect(
      (await call(readonly, 'PUT', `/rest/secure/user_registration/${reg.id}`, { id: reg.id, versionno: 0 }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await call(readonly, 'PUT', '/rest/secure/user_registration_action/deny', {
          registrationForm: { id: reg.id, versionno: 0 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(null, 'GET', '/rest/secure/user_registration/status/PENDING')).statusCode).toBe(401);
  });

  it("answers one user's registrations to the user and READ_USERS, and anyone else as an unknown user (404)", async () => {
    const me = await api.prisma.portalUser.findUniqueOrThrow({ where: { username: 'user' } });
    const other = await api.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } });
    const url = (id: number) => `/rest/secure/user_registration/user/${id}`;
    expect((await call(user, 'GET', url(me.id))).statusCode).toBe(200);
    expect((await call(readonly, 'GET', url(other.id))).statusCode).toBe(200);
    for (const [session, id] of [
      [user, other.id],
      [user, 2147483000],
      [readonly, 2147483000],
    ] as const) {
      const res = await call(session, 'GET', url(id));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: REGISTRATION_MESSAGES.loadUserFailed });
    }
  });

  it('serves account types and only active portal roles', async () => {
    const types = await call(readonly, 'GET', '/rest/secure/user_management/account_types');
    expect(types.json()).toEqual({
      defaultAccountType: { id: 'external' },
      assignableAccountTypes: [
        { id: 'external', name: 'External' },
        { id: 'internal', name: 'Internal' },
      ],
    });
    const roles = await call(readonly, 'GET', '/rest/secure/user_management/portal_roles');
    expect(roles.json().every((r: { inactive: boolean }) => !r.inactive)).toBe(true);
  });
});

describe('review: save, approve, deny, delete', () => {
  it('saves comments and roles (then 304 for the same save), and configuration sees the pending user', async () => {
    const reg = await filePublic();
    const body = {
      id: reg.id,
      versionno: 0,
      reviewerComments: 'checking',
      portalRoleIds: [await roleId('Network User')],
    };
    const saved = await call(reviewer, 'PUT', `/rest/secure/user_registration/${reg.id}`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ versionno: 1, reviewerComments: 'checking', registrationStatus: 'PENDING' });
    const same = await call(reviewer, 'PUT', `/rest/secure/user_registration/${reg.id}`, { ...body, versionno: 1 });
    expect(same.statusCode).toBe(304);
    const stale = await call(reviewer, 'PUT', `/rest/secure/user_registration/${reg.id}`, body);
    expect(stale.statusCode).toBe(422);
    const role = await api.prisma.studyRole.findUniqueOrThrow({ where: { roleName: 'Data Manager' } });
    const inUse = await call(reviewer, 'GET', `/rest/secure/system_mgmt/study_role/${role.id}/inUseByPendingUser`);
    expect(inUse.json().map((u: { id: number }) => u.id)).toContain(reg.id);
  });

  it('refuses an approval 422 per the spec: no role, internal without an entry, the domain warning', async () => {
    const reg = await filePublic();
    const approve = (body: Record<string, unknown>, query = '') =>
      call(reviewer, 'PUT', `/rest/secure/user_registration_action/approve${query}`, {
        registrationForm: { id: reg.id, versionno: 0 },
        username: `u${reg.id}x`,
        ...body,
      });
    const noRole = await approve({ portalRoleIds: [] });
    expect(noRole.json().fieldErrors).toEqual({ portalRoleIds: [REGISTRATION_MESSAGES.portalRoleRequired] });
    const userRole = await roleId('Network User');
    const internal = await approve({ portalRoleIds: [userRole], accountType: 'internal' });
    expect(internal.json().globalErrors).toEqual(['PREEXISTING_AD_ACCOUNT_REQUIRED']);
    const [demo] = await findPeopleByEmail(api.directory, 'reviewer@portal.test');
    // The reviewer's own entry is attached to a portal user: linking it is refused.
    const warning = await approve({
      portalRoleIds: [userRole],
      accountType: 'internal',
      useExistingAuthAccount: true,
      existingAuthAccountUuid: demo!.uuid,
    });
    expect(warning.json().fieldErrors).toEqual({
      'registrationForm.email': [REGISTRATION_MESSAGES.internalDomainWarning],
    });
    const attached = await approve(
      {
        portalRoleIds: [userRole],
        accountType: 'internal',
        useExistingAuthAccount: true,
        existingAuthAccountUuid: demo!.uuid,
      },
      '?ignoreValidationWarnings=true',
    );
    expect(attached.json().fieldErrors).toEqual({ existingAuthAccountUuid: ['unique'] });
    const taken = await approve({ portalRoleIds: [userRole], username: 'reviewer' });
    expect(taken.json().fieldErrors.username).toEqual(['doesntExistInLdap', 'doesntExistInDb']);
  });

  it('warns about a non-company domain against the configured ORGANISATION_EMAIL_DOMAINS (001 §4, §9)', async () => {
    const configured = await startApi({
      TEMPORAL_TASK_QUEUE: taskQueue,
      CAPTCHA_MAX_COUNTER: '2000',
      ORGANISATION_EMAIL_DOMAINS: 'example.org, clinic.test',
    });
    try {
      const configuredReviewer = await signIn(configured.app, 'reviewer');
      const [demo] = await findPeopleByEmail(api.directory, 'reviewer@portal.test');
      const userRole = await roleId('Network User');
      const approveInternal = async (email: string) => {
        const reg = await filePublic({ email });
        const res = await caller(configured.app)(
          configuredReviewer,
          'PUT',
          '/rest/secure/user_registration_action/approve',
          {
            registrationForm: { id: reg.id, versionno: 0 },
            username: `u${reg.id}d`,
            portalRoleIds: [userRole],
            accountType: 'internal',
            useExistingAuthAccount: true,
            existingAuthAccountUuid: demo!.uuid,
          },
        );
        expect(res.statusCode, res.body).toBe(422);
        return res.json().fieldErrors;
      };
      // A configured domain and its subdomains draw no warning: the next check (the entry is taken) answers.
      const tag = Date.now().toString(36);
      expect(await approveInternal(`in.${tag}@example.org`)).toEqual({ existingAuthAccountUuid: ['unique'] });
      expect(await approveInternal(`in.${tag}@lab.clinic.test`)).toEqual({ existingAuthAccountUuid: ['unique'] });
      // The built-in default domain is no longer an organisation domain once others are configured.
      expect(await approveInternal(`out.${tag}@portal.test`)).toEqual({
        'registrationForm.email': [REGISTRATION_MESSAGES.internalDomainWarning],
      });
    } finally {
      await configured.close();
    }
  });

  it('approves: one entry, one user with roles and access, the set-password mail; then read-only', async () => {
    const reg = await filePublic();
    const workflow = api.deps.temporal.workflow.getHandle(reg.workflowId);
    const subjectUserId = async () => (await workflow.describe()).typedSearchAttributes.get(SubjectUserIdKey);
    // Issue 21 case 9: no user exists before the approval, so ops filtering by SubjectUserId find 0, never a
    // hash of the address.
    expect(await subjectUserId()).toBe(0);
    const username = `reg${reg.id}`;
    const userRole = await roleId('Network User');
    const res = await call(reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
      registrationForm: { id: reg.id, versionno: 0, reviewerComments: 'welcome' },
      portalRoleIds: [userRole],
      username,
      gecos: 'Reg Tester',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ registrationStatus: 'APPROVED', versionno: 1 });
    const created = await api.prisma.portalUser.findUniqueOrThrow({
      where: { username },
      include: { portalRoles: true, userAccesses: true },
    });
    expect(res.json().portalUserId).toBe(created.id);
    expect(await subjectUserId()).toBe(created.id);
    expect(created.portalRoles.map((r) => r.portalRoleId)).toEqual([userRole]);
    expect(created.userAccesses.map((a) => a.roleName)).toEqual(['Data Manager']);
    expect((await findPeopleByEmail(api.directory, reg.email)).map((e) => e.uuid)).toEqual([created.uuid]);
    const mail = await waitForMail(reg.email, 'your account was created');
    expect(mail.text).toMatch(/\/set-initial-password\/[A-Za-z0-9_-]{43}/);
    const again = await call(reviewer, 'PUT', '/rest/secure/user_registration_action/deny', {
      registrationForm: { id: reg.id, versionno: 1 },
    });
    expect(again.statusCode).toBe(422);
  });

  it('denies (mail, DENIED) and deletes (no mail, gone from lists)', async () => {
    const denied = await filePublic();
    const res = await call(reviewer, 'PUT', '/rest/secure/user_registration_action/deny', {
      registrationForm: { id: denied.id, versionno: 0, reviewerComments: 'not eligible' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().registrationStatus).toBe('DENIED');
    await waitForMail(denied.email, 'not approved');

    const deleted = await filePublic();
    const del = await call(reviewer, 'DELETE', `/rest/secure/user_registration/${deleted.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await call(reviewer, 'GET', `/rest/secure/user_registration/${deleted.id}`)).statusCode).toBe(404);
    const all = await call(reviewer, 'GET', '/rest/secure/user_registration');
    expect(all.json().content.map((r: { id: number }) => r.id)).not.toContain(deleted.id);
  });
});
