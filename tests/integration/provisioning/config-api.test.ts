/**
 * A system's provisioning connection and its actions (issue 41; api/src/features/provisioning) against real
 * PostgreSQL, Temporal and a real scim2-server (tests/support/scim-target.ts): ADMIN changes, READ_USERS reads,
 * others 403, nobody 401; the base URL rules (https, loopback http only outside production) and the settings'
 * bounds (422); the token sealed and never answered (hasToken), one audit row per change without it; the
 * reconciliation schedule present while enabled and gone when off; 'Test connection' ok, refused (wrong token)
 * and timed out (frozen target); re-sync writing a notice and PENDING; 'Reconcile now' making a report row and
 * starting its workflow (no worker runs it here); a person's provisioned accounts. The reports: reports-api.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleNotFoundError } from '@temporalio/client';
import { CONFIG_MESSAGES, PROVISIONING_MESSAGES, USER_DETAIL_MESSAGES } from '@portal/contract';
import { PROVISIONING_SEAL_PURPOSE, openText } from '@portal/db';
import {
  PROVISION_RECONCILE_WORKFLOW_TYPE,
  provisionReconcileScheduleId,
  provisionReconcileWorkflowId,
} from '@portal/workflows';
import { type ScimTarget, startScimTarget } from '../../support/scim-target';
import { PROVISIONING_KEY } from './support';
import {
  auditRowsOf,
  caller,
  createTestUser,
  signIn,
  startApi,
  unique,
  useConfigApi,
  type TestApi,
} from '../config-support';

const taskQueue = unique('provisioning-config-api').replace(/\s/g, '-');
const { api, call, admin, readonly, user } = useConfigApi({ PROVISIONING_KEY, TEMPORAL_TASK_QUEUE: taskQueue });

const BASE = '/rest/secure/system_mgmt/system_access';
const path = (id: number, tail = '') => `${BASE}/${id}/provisioning${tail}`;
/** A loopback port nothing listens on: a target that refuses (the convergence of a stray worker never ends). */
const DEAD_URL = 'http://127.0.0.1:9/scim/v2';

let target: ScimTarget;
let fixedId: number;
beforeAll(async () => {
  target = await startScimTarget();
  fixedId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
});
afterAll(async () => {
  target?.thaw();
  await target?.stop();
});

/** A system of this test's own. */
const newSystem = (tag: string) =>
  api.prisma.systemAccess.create({ data: { systemName: unique(`Provisioning ${tag}`), description: '' } });

const body = (extra: Record<string, unknown> = {}) => ({
  baseUrl: target.url,
  token: target.token,
  enabled: false,
  accessAs: 'EXTENSION',
  deleteOnRemoval: false,
  retryDays: 7,
  reconcileEveryMinutes: 60,
  ...extra,
});

/** A system with a saved connection of `extra` (ADMIN's PUT, expected 200). */
async function connected(tag: string, extra: Record<string, unknown> = {}) {
  const system = await newSystem(tag);
  const res = await call(admin, 'PUT', path(system.id), body(extra));
  expect(res.statusCode, res.body).toBe(200);
  return system;
}

const scheduleOf = (systemId: number) => api.deps.temporal.schedule.getHandle(provisionReconcileScheduleId(systemId));

describe('provisioning connection: permissions and refusals', () => {
  it('needs READ_USERS to read, ADMIN to change or act, and a session for all', async () => {
    const system = await newSystem('Perm');
    const changing: Array<['PUT' | 'DELETE' | 'POST', string, unknown]> = [
      ['PUT', path(system.id), body()],
      ['DELETE', path(system.id), undefined],
      ['POST', path(system.id, '/test'), {}],
      ['POST', path(system.id, '/resync'), { portalUserId: 1 }],
      ['POST', path(system.id, '/reconcile'), {}],
    ];
    for (const [method, url, payload] of changing) {
      expect((await call(null, method, url, payload)).statusCode, `${method} ${url}`).toBe(401);
      for (const denied of [user, readonly]) {
        expect((await call(denied, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      }
    }
    for (const url of [
      path(system.id),
      path(system.id, '/reconciliations'),
      `/rest/secure/user_management/user/1/provisioning`,
    ]) {
      expect((await call(null, 'GET', url)).statusCode, url).toBe(401);
      expect((await call(user, 'GET', url)).statusCode, url).toBe(403);
    }
    const none = await call(readonly, 'GET', path(system.id));
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect(await api.prisma.provisioningConnection.findUnique({ where: { systemAccessId: system.id } })).toBeNull();
  });

  it('refuses the fixed system, unknown systems and a missing connection', async () => {
    const fixed = await call(admin, 'PUT', path(fixedId), body());
    expect(fixed.statusCode).toBe(422);
    expect(fixed.json()).toEqual({ fieldErrors: {}, globalErrors: [PROVISIONING_MESSAGES.fixedSystem] });
    expect((await call(admin, 'GET', path(fixedId))).json()).toBeNull();
    const unknown = await call(admin, 'PUT', path(999_999), body());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: CONFIG_MESSAGES.systems.load });
    const system = await newSystem('Missing');
    for (const [method, tail] of [
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/reconcile'],
    ] as const) {
      const res = await call(admin, method, path(system.id, tail), method === 'POST' ? {} : undefined);
      expect(res.statusCode, tail).toBe(404);
      expect(res.json()).toEqual({ message: PROVISIONING_MESSAGES.notSetUp });
    }
  });

  it('answers 422 for a bad base URL, bad bounds, and enabling without a token', async () => {
    const system = await newSystem('Rules');
    const bad = await call(admin, 'PUT', path(system.id), {
      baseUrl: 'http://scim.example.org/v2',
      retryDays: 0,
      reconcileEveryMinutes: 1.5,
      accessAs: 'GROUPS',
      enabled: 'yes',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      fieldErrors: {
        baseUrl: ['protocolRequired'],
        retryDays: ['invalid'],
        reconcileEveryMinutes: ['invalid'],
        accessAs: ['invalid'],
        enabled: ['invalid'],
      },
      globalErrors: [],
    });
    expect((await call(admin, 'PUT', path(system.id), { ...body(), retryDays: 31 })).json().fieldErrors).toEqual({
      retryDays: ['invalid'],
    });
    const noToken = await call(admin, 'PUT', path(system.id), body({ token: null, enabled: true }));
    expect(noToken.statusCode).toBe(422);
    expect(noToken.json()).toEqual({ fieldErrors: { token: ['required'] }, globalErrors: [] });
    // Saved without a token (off) is fine.
    const off = await call(admin, 'PUT', path(system.id), body({ token: '  ' }));
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ hasToken: false, enabled: false });
  });

  it('refuses loopback http in production and a token without PROVISIONING_KEY', async () => {
    let prod: TestApi | undefined;
    let keyless: TestApi | undefined;
    try {
      prod = await startApi({ SSO_ALLOW_LOOPBACK_HTTP: 'false', PROVISIONING_KEY });
      // The stack's environment has a key: empty is none.
      keyless = await startApi({ PROVISIONING_KEY: '' });
      const system = await newSystem('Prod');
      const refused = await caller(prod.app)(await signIn(prod.app, 'admin'), 'PUT', path(system.id), body());
      expect(refused.statusCode).toBe(422);
      expect(refused.json().fieldErrors).toEqual({ baseUrl: ['protocolRequired'] });
      const noKey = await caller(keyless.app)(await signIn(keyless.app, 'admin'), 'PUT', path(system.id), body());
      expect(noKey.statusCode).toBe(422);
      expect(noKey.json()).toEqual({ fieldErrors: {}, globalErrors: [PROVISIONING_MESSAGES.keyMissing] });
    } finally {
      await prod?.close();
      await keyless?.close();
    }
  });
});

describe('provisioning connection: saving', () => {
  it('seals the token, never answers it, audits every change without it, and answers 304 for no change', async () => {
    const system = await newSystem('Token');
    const created = await call(admin, 'PUT', path(system.id), body());
    expect(created.statusCode, created.body).toBe(200);
    expect(created.body).not.toContain(target.token);
    expect(created.json()).toMatchObject({
      systemAccessId: system.id,
      baseUrl: target.url,
      hasToken: true,
      enabled: false,
      accounts: { pending: 0, inSync: 0, error: 0 },
      lastReconciliation: null,
    });
    const row = await api.prisma.provisioningConnection.findUniqueOrThrow({ where: { systemAccessId: system.id } });
    expect(row.tokenSealed).not.toContain(target.token);
    expect(openText(PROVISIONING_KEY, PROVISIONING_SEAL_PURPOSE, row.tokenSealed!)).toBe(target.token);
    const read = await call(readonly, 'GET', path(system.id));
    expect(read.body).not.toContain(target.token);
    expect(read.json().hasToken).toBe(true);

    expect((await call(admin, 'PUT', path(system.id), body({ token: null }))).statusCode).toBe(304);
    const changed = await call(admin, 'PUT', path(system.id), body({ token: null, retryDays: 3 }));
    expect(changed.json()).toMatchObject({ hasToken: true, retryDays: 3 });
    // Another origin needs the token again: the stored one is never sent where it was not entered for.
    const moved = await call(
      admin,
      'PUT',
      path(system.id),
      body({ token: null, baseUrl: 'https://other.example.org/scim' }),
    );
    expect(moved.json()).toEqual({ fieldErrors: { token: ['required'] }, globalErrors: [] });

    expect((await call(admin, 'DELETE', path(system.id))).statusCode).toBe(200);
    expect((await call(admin, 'GET', path(system.id))).json()).toBeNull();
    const audit = await auditRowsOf(api.prisma, 'ProvisioningConnection', system.id);
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(audit[0]!.after).toMatchObject({ hasToken: true, tokenReplaced: true, baseUrl: target.url });
    expect(audit[1]!.before).toMatchObject({ retryDays: 7 });
    expect(audit[1]!.after).toMatchObject({ retryDays: 3, tokenReplaced: false });
    for (const a of audit) {
      expect(JSON.stringify([a.before, a.after])).not.toContain(target.token);
      expect(JSON.stringify([a.before, a.after])).not.toContain(row.tokenSealed!);
    }
  });

  it('keeps a reconciliation schedule while enabled and removes it when off or removed', async () => {
    const system = await connected('Schedule', { enabled: true, reconcileEveryMinutes: 15 });
    const described = await scheduleOf(system.id).describe();
    expect(described.spec.intervals?.map((i) => i.every)).toEqual([15 * 60_000]);
    expect(described.action).toMatchObject({
      workflowType: PROVISION_RECONCILE_WORKFLOW_TYPE,
      workflowId: `${provisionReconcileScheduleId(system.id)}-run`,
      taskQueue,
      args: [{ systemAccessId: system.id }],
    });
    expect(described.policies.overlap).toBe('SKIP');
    const slower = await call(
      admin,
      'PUT',
      path(system.id),
      body({ token: null, enabled: true, reconcileEveryMinutes: 120 }),
    );
    expect(slower.statusCode, slower.body).toBe(200);
    expect((await scheduleOf(system.id).describe()).spec.intervals?.map((i) => i.every)).toEqual([120 * 60_000]);

    expect((await call(admin, 'PUT', path(system.id), body({ token: null, enabled: false }))).statusCode).toBe(200);
    await expect(scheduleOf(system.id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    // Removing a connection whose schedule is already gone is fine; enabling and removing removes it.
    await call(admin, 'PUT', path(system.id), body({ token: null, enabled: true }));
    await scheduleOf(system.id).describe();
    expect((await call(admin, 'DELETE', path(system.id))).statusCode).toBe(200);
    await expect(scheduleOf(system.id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});

describe('provisioning connection: Test connection', () => {
  it('is ok against a working target, stores and audits the outcome', async () => {
    const system = await connected('Test ok');
    const res = await call(admin, 'POST', path(system.id, '/test'), {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, message: PROVISIONING_MESSAGES.testOk });
    const row = await api.prisma.provisioningConnection.findUniqueOrThrow({ where: { systemAccessId: system.id } });
    expect(row).toMatchObject({ lastTestOk: true, lastTestMessage: PROVISIONING_MESSAGES.testOk });
    expect(row.patchSupported).not.toBeNull();
    expect((await call(readonly, 'GET', path(system.id))).json()).toMatchObject({ lastTestOk: true });
    const audit = await auditRowsOf(api.prisma, 'ProvisioningConnection', system.id);
    expect(audit.at(-1)).toMatchObject({ action: 'TESTED', after: { ok: true } });
  });

  it('is not ok (never a 5xx) with a wrong token or a target that answers nothing', async () => {
    const wrong = await connected('Test wrong', { token: 'not-the-target-token' });
    const refused = await call(admin, 'POST', path(wrong.id, '/test'), {});
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().ok).toBe(false);
    expect(refused.json().message).toContain('401');
    expect(refused.body).not.toContain('not-the-target-token');

    const frozen = await connected('Test frozen');
    target.freeze();
    try {
      const began = Date.now();
      const res = await call(admin, 'POST', path(frozen.id, '/test'), {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ ok: false });
      expect(res.json().message).toContain('no answer');
      expect(Date.now() - began).toBeLessThan(15_000);
    } finally {
      target.thaw();
    }
    const row = await api.prisma.provisioningConnection.findUniqueOrThrow({ where: { systemAccessId: frozen.id } });
    expect(row.lastTestOk).toBe(false);
    // Thawed, it answers again.
    expect((await call(admin, 'POST', path(frozen.id, '/test'), {})).json().ok).toBe(true);
  }, 60_000);
});

describe('provisioning connection: Re-sync this person and Reconcile now', () => {
  it('turning a connection on notes everyone who holds the system (their accounts are made then); saving it on again does not', async () => {
    const system = await connected('TurnOn', { baseUrl: DEAD_URL });
    const holder = await createTestUser(api.prisma, 'TurnOn');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: holder.id,
        roleName: 'Research Pharmacist',
        siteCodes: ['MA036'],
        studyNames: ['E1234'],
        systemAccessIds: [system.id],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    const notices = () => api.prisma.provisioningNotice.count({ where: { systemAccessId: system.id } });
    expect(await notices()).toBe(0);
    const on = await call(admin, 'PUT', path(system.id), body({ baseUrl: DEAD_URL, token: null, enabled: true }));
    expect(on.statusCode, on.body).toBe(200);
    expect(await notices()).toBe(1);
    expect(on.json().accounts).toEqual({ pending: 1, inSync: 0, error: 0 });
    const again = await call(
      admin,
      'PUT',
      path(system.id),
      body({ baseUrl: DEAD_URL, token: null, enabled: true, retryDays: 3 }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(await notices()).toBe(1);
    await call(admin, 'PUT', path(system.id), body({ baseUrl: DEAD_URL, token: null, enabled: false }));
  });

  it('re-sync writes a notice and marks the account PENDING, in one audited transaction', async () => {
    const system = await connected('Resync', { baseUrl: DEAD_URL, enabled: true });
    const person = await createTestUser(api.prisma, 'Resync');
    const res = await call(admin, 'POST', path(system.id, '/resync'), { portalUserId: person.id });
    expect(res.statusCode, res.body).toBe(200);
    const notices = await api.prisma.provisioningNotice.findMany({
      where: { systemAccessId: system.id, portalUserId: person.id },
    });
    expect(notices).toHaveLength(1);
    const account = await api.prisma.provisioningAccount.findUniqueOrThrow({
      where: { systemAccessId_portalUserId: { systemAccessId: system.id, portalUserId: person.id } },
    });
    expect(account.state).toBe('PENDING');
    const audit = await auditRowsOf(api.prisma, 'ProvisioningConnection', system.id);
    expect(audit.at(-1)).toMatchObject({ action: 'RESYNC_REQUESTED', after: { portalUserId: person.id, notices: 1 } });

    const unknown = await call(admin, 'POST', path(system.id, '/resync'), { portalUserId: 2_000_000_000 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: USER_DETAIL_MESSAGES.loadUserFailed });
    expect((await call(admin, 'POST', path(system.id, '/resync'), { portalUserId: 0 })).statusCode).toBe(422);

    // The person's accounts on the user detail.
    const accounts = await call(readonly, 'GET', `/rest/secure/user_management/user/${person.id}/provisioning`);
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(accounts.json()).toEqual([
      expect.objectContaining({ systemAccessId: system.id, systemName: system.systemName, state: 'PENDING' }),
    ]);
    expect((await call(readonly, 'GET', '/rest/secure/user_management/user/2000000000/provisioning')).statusCode).toBe(
      404,
    );

    await call(admin, 'PUT', path(system.id), body({ baseUrl: DEAD_URL, token: null, enabled: false }));
    const off = await call(admin, 'POST', path(system.id, '/resync'), { portalUserId: person.id });
    expect(off.statusCode).toBe(422);
    expect(off.json()).toEqual({ fieldErrors: {}, globalErrors: [PROVISIONING_MESSAGES.notEnabled] });
    expect((await call(admin, 'POST', path(system.id, '/reconcile'), {})).json().globalErrors).toEqual([
      PROVISIONING_MESSAGES.notEnabled,
    ]);
    // Removed, the connection's account no longer shows.
    await call(admin, 'DELETE', path(system.id));
    expect((await call(readonly, 'GET', `/rest/secure/user_management/user/${person.id}/provisioning`)).json()).toEqual(
      [],
    );
  });

  it('reconcile makes a RUNNING report row, audits it and starts its workflow', async () => {
    const system = await connected('Reconcile', { enabled: true });
    const res = await call(admin, 'POST', path(system.id, '/reconcile'), {});
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json();
    expect(run).toMatchObject({ systemAccessId: system.id, status: 'RUNNING', requestedBy: 'admin', orphans: 0 });
    const handle = api.deps.temporal.workflow.getHandle(provisionReconcileWorkflowId(system.id, run.id));
    try {
      const described = await handle.describe();
      expect(described.type).toBe(PROVISION_RECONCILE_WORKFLOW_TYPE);
      expect(described.taskQueue).toBe(taskQueue);
      expect(described.status.name).toBe('RUNNING');
    } finally {
      await handle.terminate('test over').catch(() => undefined);
    }
    const audit = await auditRowsOf(api.prisma, 'ProvisioningConnection', system.id);
    expect(audit.at(-1)).toMatchObject({ action: 'RECONCILE_REQUESTED', after: { reconciliationId: run.id } });
    expect((await call(readonly, 'GET', path(system.id))).json().lastReconciliation).toMatchObject({ id: run.id });
    await call(admin, 'DELETE', path(system.id));
  });

  it('with Temporal unreachable: a save commits (the schedule converges later), a reconcile is FAILED with 503', async () => {
    let down: TestApi | undefined;
    try {
      down = await startApi({ PROVISIONING_KEY, TEMPORAL_ADDRESS: '127.0.0.1:9' });
      const session = await signIn(down.app, 'admin');
      const inject = (method: 'PUT' | 'POST', url: string, payload: unknown) =>
        caller(down!.app)(session, method, url, payload);
      const system = await newSystem('Down');
      const saved = await inject('PUT', path(system.id), body({ enabled: true }));
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().enabled).toBe(true);
      const res = await inject('POST', path(system.id, '/reconcile'), {});
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: PROVISIONING_MESSAGES.reconcileUnavailable });
      const run = await api.prisma.provisioningReconciliation.findFirstOrThrow({
        where: { systemAccessId: system.id },
      });
      expect(run.status).toBe('FAILED');
      expect(run.error).toMatch(/^Not started: /);
      // Saved again on a reachable Temporal, the schedule converges.
      expect((await call(admin, 'PUT', path(system.id), body({ token: null, enabled: true }))).statusCode).toBe(304);
      await scheduleOf(system.id).describe();
      await call(admin, 'DELETE', path(system.id));
    } finally {
      await down?.close();
    }
  }, 90_000);
});
