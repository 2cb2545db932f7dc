/**
 * Provisioning converges a study system's accounts (issue 41) against a real SCIM 2.0 target (scim2-server),
 * with a real in-process worker and the worker's own listener: each change to what the system should hold,
 * made through the product's own routes, writes a notice in its transaction; the listener signal-with-starts
 * `provision-<system>-<subject>`, whose activity looks the account up by externalId and creates, updates or
 * deactivates it. The target is frozen (SIGSTOP) past the activity's deadline, answers 429 with Retry-After,
 * refuses with 400, and loses a reply after committing: nothing is lost, nothing is doubled, order is kept.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { PORTAL_SCIM_EXTENSION } from '@portal/contract';
import { listenForProvisioningNotices } from '@portal/worker';
import { provisionWorkflowId } from '@portal/workflows';
import { startFaultProxy } from '../../support/fault-proxy';
import { startScimTarget } from '../../support/scim-target';
import { type TestUser, createTestUser } from '../auth-helpers';
import { startWorker } from '../harness';
import { maybeRecordHistory, until } from '../lifecycle/support';
import { accountsOf, emailOf, provisionedSystem, useProvisioningRig } from './support';

const USERS = '/rest/secure/user_management';
const rig = useProvisioningRig('provisioning');
const { grant, subjectOf, stateOf, untilAccount } = rig;

/** Saves the user detail of `u` with `change` over what it reads. */
async function editDetail(u: TestUser, change: Record<string, unknown>) {
  const detail = (await rig.call(rig.admin, 'GET', `${USERS}/user/${u.user.id}`)).json();
  const res = await rig.call(rig.admin, 'PUT', `${USERS}/update_user`, { ...detail, ...change });
  expect(res.statusCode, res.body).toBe(200);
}

describe('provisioning converges the target on every change', () => {
  it('an access grant creates the account (core User, externalId, study access); an edit, a deactivation, a re-activation and a removal reach it', async () => {
    const u = await createTestUser(rig.api, 'prov');
    await grant(u, [rig.systemId]);
    const created = await untilAccount(u, 'the account created', (a) => a.active === true);
    expect(created).toMatchObject({
      userName: u.username,
      name: { givenName: 'Test', familyName: 'prov' },
      active: true,
    });
    expect(emailOf(created)).toBe(u.email);
    const ext = created[PORTAL_SCIM_EXTENSION] as { studyAccess: Array<{ studyRole: string; value: string }> };
    expect(ext.studyAccess.map((a) => a.studyRole)).toEqual(expect.arrayContaining(['Research Pharmacist']));
    await until(async () => (await stateOf(u))?.state === 'IN_SYNC', 'the account in sync');
    expect((await stateOf(u))?.targetId).toBe(created.id);

    // The user detail's edit of the email (users/detail-update.ts).
    const email = `new.${u.email}`;
    await editDetail(u, { email });
    await untilAccount(u, 'the new email', (a) => emailOf(a) === email);

    // Deactivation and re-activation (users/detail-status.ts).
    expect((await rig.call(rig.admin, 'PUT', `${USERS}/deactivate_user/${u.user.id}`, {})).statusCode).toBe(200);
    await untilAccount(u, 'the account deactivated', (a) => a.active === false);
    expect((await rig.call(rig.admin, 'PUT', `${USERS}/activate_user/${u.user.id}`, {})).statusCode).toBe(200);
    await untilAccount(u, 'the account active again', (a) => a.active === true);

    // The access removed (the one access-records writer): deactivated, not deleted, and still one account.
    await grant(u, []);
    const removed = await untilAccount(u, 'the account deactivated on removal', (a) => a.active === false);
    expect(removed.id).toBe(created.id);
    expect(await accountsOf(rig.target, await subjectOf(u))).toHaveLength(1);
    const describe = await rig.temporal.workflow
      .getHandle(provisionWorkflowId(rig.systemId, await subjectOf(u)))
      .describe();
    expect(describe.typedSearchAttributes.get({ name: 'ProvisioningSystem', type: 'KEYWORD' } as never)).toBe(
      String(rig.systemId),
    );
  });

  it('a target frozen past the activity deadline, changed twice meanwhile: once back, one account with the last change', async () => {
    const u = await createTestUser(rig.api, 'provfrozen');
    rig.target.freeze();
    try {
      await grant(u, [rig.systemId]);
      const email = `later.${u.email}`;
      await editDetail(u, { email });
      // Past one attempt's deadline (3 s) at least once: the workflow's activity is retrying.
      const handle = rig.temporal.workflow.getHandle(provisionWorkflowId(rig.systemId, await subjectOf(u)));
      await until(
        async () => {
          const d = await handle.describe().catch(() => undefined);
          return (d?.raw.pendingActivities?.[0]?.attempt ?? 0) >= 2;
        },
        'a second attempt at the frozen target',
        30_000,
      );
      expect((await stateOf(u))?.state).toBe('PENDING');
      rig.target.thaw();
      const account = await untilAccount(u, 'the last change', (a) => emailOf(a) === email && a.active === true);
      expect(account.userName).toBe(u.username);
      expect(await accountsOf(rig.target, await subjectOf(u))).toHaveLength(1);
      await handle.result();
      await maybeRecordHistory({ client: rig.temporal }, handle.workflowId, 'provisioning', 'retried-then-converged');
    } finally {
      rig.target.thaw();
    }
  });

  it('two workers and two listeners, one person changed twice at once: one account, the final state right', async () => {
    const stopSecondWorker = await startWorker(rig.api, rig.taskQueue);
    const stopSecondListener = listenForProvisioningNotices(rig.listenerOptions);
    try {
      const u = await createTestUser(rig.api, 'provtwice');
      const email = `twice.${u.email}`;
      await Promise.all([grant(u, [rig.systemId]), editDetail(u, { email })]);
      await untilAccount(u, 'both changes', (a) => a.active === true && emailOf(a) === email);
      await until(async () => (await stateOf(u))?.state === 'IN_SYNC', 'the account in sync');
      expect(await accountsOf(rig.target, await subjectOf(u))).toHaveLength(1);
    } finally {
      await stopSecondListener();
      await stopSecondWorker();
    }
  });

  it('a reply lost after the target made the account: the retry finds it by externalId, no second account', async () => {
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(rig.target.url).port) });
    try {
      const lossy = await provisionedSystem(rig.api.prisma, {
        baseUrl: `http://127.0.0.1:${proxy.port}`,
        token: rig.target.token,
        tag: 'lossy',
      });
      // The look-up's answer passes; the create's is lost after the target committed it.
      proxy.dropAnswers(1, 'POST ');
      const u = await createTestUser(rig.api, 'provlost');
      await grant(u, [lossy]);
      await until(async () => (await stateOf(u, lossy))?.state === 'IN_SYNC', 'in sync after the lost reply');
      expect(proxy.dropped()).toBe(1);
      expect(await accountsOf(rig.target, await subjectOf(u))).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('a target that refuses the portal extension (400) records the refusal as the person error, shown on the account', async () => {
    const bare = await startScimTarget({ extension: false });
    try {
      const refusing = await provisionedSystem(rig.api.prisma, { baseUrl: bare.url, token: bare.token, tag: 'bare' });
      const u = await createTestUser(rig.api, 'provrefused');
      await grant(u, [refusing]);
      await until(async () => (await stateOf(u, refusing))?.state === 'ERROR', 'the refusal recorded');
      expect((await stateOf(u, refusing))?.lastError).toMatch(/400/);
      // Shown on the user detail's Access tab, with the target's message.
      const shown = await rig.call(rig.admin, 'GET', `${USERS}/user/${u.user.id}/provisioning`);
      expect(shown.json()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            systemAccessId: refusing,
            state: 'ERROR',
            lastError: expect.stringMatching(/400/),
          }),
        ]),
      );
      expect(await bare.users()).toHaveLength(0);
      const workflowId = provisionWorkflowId(refusing, await subjectOf(u));
      await rig.temporal.workflow.getHandle(workflowId).result();
      await maybeRecordHistory({ client: rig.temporal }, workflowId, 'provisioning', 'refused');
    } finally {
      await bare.stop();
    }
  });

  it('429 with Retry-After is waited out, then the account is made', async () => {
    // A hop in front of the real target answers the first two calls 429 (Retry-After: 2), then forwards.
    let refusals = 2;
    const times: number[] = [];
    const hop = http.createServer((req, res) => {
      times.push(Date.now());
      if (refusals-- > 0) {
        res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/scim+json' });
        res.end(JSON.stringify({ status: '429', detail: 'slow down' }));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${rig.target.url}${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        }).then(async (up) => {
          res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await up.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => hop.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (hop.address() as { port: number }).port;
      const slow = await provisionedSystem(rig.api.prisma, {
        baseUrl: `http://127.0.0.1:${port}`,
        token: rig.target.token,
        tag: 'slow',
      });
      const u = await createTestUser(rig.api, 'provslow');
      await grant(u, [slow]);
      await until(async () => (await stateOf(u, slow))?.state === 'IN_SYNC', 'the account made after the 429s');
      expect(await accountsOf(rig.target, await subjectOf(u))).toHaveLength(1);
      // Each retry waited the target's two seconds (the workflow's own retries wait at most one here).
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1900);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1900);
    } finally {
      hop.close();
    }
  });
});
