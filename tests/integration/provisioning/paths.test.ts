/**
 * The emitting paths that run in workflows reach the provisioned system too (issue 41): the access expiry's
 * removal, an access review's Remove decision carried out at its close, and a profile change's approval each
 * write their notice in their own transaction, and the worker's listener has the account converged. Real
 * scim2-server, real in-process worker (with the directory, for the profile change's outside effect).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { addDays, dayIn } from '@portal/contract';
import { listenForProvisioningNotices } from '@portal/worker';
import { ACCESS_EXPIRY_WORKFLOW_TYPE, type AccessExpiryInput } from '@portal/workflows';
import { type ScimTarget, startScimTarget } from '../../support/scim-target';
import { type TestUser, createTestUser } from '../auth-helpers';
import { roleBlockOf } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { uniqueQueue, until } from '../lifecycle/support';
import { decide, fileCampaign, startCampaign, statusReached } from '../access-review/support';
import { fileChange, newRequester, reviewCall } from '../profile-change/support';
import { PROVISIONING_KEY, accountOf, emailOf, provisionedSystem } from './support';

const taskQueue = uniqueQueue('provisioning-paths');
const DAY = 86_400_000;
let api: TestApi;
let call: ReturnType<typeof caller>;
let admin: Session;
let reviewer: Session;
let target: ScimTarget;
let systemId: number;
let stopWorker: () => Promise<void>;
let stopListener: () => Promise<void>;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  target = await startScimTarget();
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, PROVISIONING_KEY });
  call = caller(api.app);
  admin = await signIn(api.app, 'admin');
  reviewer = await signIn(api.app, 'reviewer');
  systemId = await provisionedSystem(api.prisma, { baseUrl: target.url, token: target.token, tag: 'paths' });
  stopWorker = await startWorker(api, taskQueue, { directory: api.directory });
  connection = await Connection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  temporal = new Client({ connection, namespace: api.cfg.TEMPORAL_NAMESPACE });
  stopListener = listenForProvisioningNotices({
    connectionString: api.cfg.DATABASE_URL,
    prisma: api.prisma,
    client: temporal,
    taskQueue,
    attemptTimeout: '3 seconds',
    maxRetryInterval: '1 second',
  });
});
afterAll(async () => {
  await stopListener?.();
  await stopWorker?.();
  await connection?.close();
  await api?.close();
  await target?.stop();
});

/** Grants `u` a 'Research Pharmacist' block naming the system, through the Access tab's route. */
async function grant(u: TestUser, extra: Record<string, unknown> = {}) {
  const block = await roleBlockOf(api.prisma, 'Research Pharmacist', { siteCodes: ['MA036'], ...extra });
  const res = await call(admin, 'PUT', `/rest/secure/user_access/user/${u.user.id}`, {
    userAccesses: [{ ...block, systemAccessIds: [...block.systemAccessIds, systemId] }],
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Waits until the target's account of `u` satisfies `check`. @returns it. */
async function untilAccount(u: TestUser, what: string, check: (a: Record<string, unknown>) => boolean) {
  const { subjectId } = await api.prisma.portalUser.findUniqueOrThrow({ where: { id: u.user.id } });
  let last: Record<string, unknown> | undefined;
  await until(
    async () => {
      last = await accountOf(target, subjectId);
      return !!last && check(last);
    },
    what,
    30_000,
  );
  return last!;
}

describe('emitting paths run by workflows', () => {
  it('the access expiry deactivates the account of an access that ended', async () => {
    const u = await createTestUser(api, 'provexp');
    await grant(u, { accessEndDate: addDays(dayIn('UTC', new Date()), 1) });
    await untilAccount(u, 'the account created', (a) => a.active === true);
    await temporal.workflow.execute(ACCESS_EXPIRY_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: `${taskQueue}-expiry`,
      args: [
        {
          timeZone: 'UTC',
          noticeDays: 14,
          now: new Date(Date.now() + 3 * DAY).toISOString(),
        } satisfies AccessExpiryInput,
      ],
      workflowExecutionTimeout: '2 minutes',
    });
    await untilAccount(u, 'the account deactivated by the expiry', (a) => a.active === false);
  });

  it("an access review's Remove decision, carried out at the close, deactivates the account", async () => {
    const u = await createTestUser(api, 'provrev');
    await grant(u);
    await untilAccount(u, 'the account created', (a) => a.active === true);
    const [record] = await api.prisma.userAccess.findMany({ where: { portalUserId: u.user.id, inactive: false } });
    const campaign = await fileCampaign(api.prisma, {
      scope: { systemAccessIds: [systemId] },
      defaultDecision: 'KEEP',
    });
    await startCampaign(api.prisma, temporal, taskQueue, campaign, { duration: '4 seconds' });
    await statusReached(api.prisma, campaign.id, 'OPEN');
    await decide(api.prisma, campaign.id, [record!.id], 'REMOVE');
    await statusReached(api.prisma, campaign.id, 'CLOSED');
    await untilAccount(u, 'the account deactivated by the review', (a) => a.active === false);
  });

  it("a profile change's approval sends the new name and email", async () => {
    const r = await newRequester(api, 'provpc');
    await grant(r.user);
    await untilAccount(r.user, 'the account created', (a) => a.active === true);
    const filed = await fileChange(api, r);
    const approved = await reviewCall(api, reviewer, filed, { versionno: filed.versionno, requestStatus: 'APPROVED' });
    expect(approved.statusCode, approved.body).toBe(200);
    const { email, lastName } = await api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } });
    expect(email).not.toBe(r.user.email);
    const account = await untilAccount(r.user, 'the new email', (a) => emailOf(a) === email);
    expect(account.name).toMatchObject({ givenName: 'Renamed', familyName: lastName });
  });
});
