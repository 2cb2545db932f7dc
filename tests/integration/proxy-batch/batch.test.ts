/**
 * Proxy bulk batches (001 §2.7, §4 Proxy submission, §6, §9; REQUEST-LIFECYCLE "Proxy bulk batch") on the real
 * stack: the batch files one request per user strictly in order (NEW or CHANGE), skips a user with an active
 * request (601), aborts on the first user's 422 or 304 (a later 422 is only recorded), stores a truthful
 * summary, marks each request with the proxy comment and `ProxyBatchId`; a proxy without forAllUsers is
 * refused users outside their sites (batch, single POST, user list). A worker killed mid-batch is in
 * restart.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Client, Connection } from '@temporalio/client';
import {
  ACTIVE_REQUEST_EXISTS_STATUS,
  type AccessControl,
  PROXY_MESSAGES,
  type ProxyBatchDetail,
  parseProxyComment,
} from '@portal/contract';
import type { PortalUser, PrismaClient } from '@portal/db';
import { accessChangeWorkflowId, proxyBatchWorkflowId } from '@portal/workflows';
import { reconcileUnstartedRequests } from '@portal/worker';
import { createTestUser } from '../auth-helpers';
import { demoRequestParts, grantBlock } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { HISTORIES_DIR, maybeRecordHistory, uniqueQueue } from '../lifecycle/support';
import { BATCH_URL, batchEnded, fileBatch, holdFilingLock, subjectsAt } from './support';

const taskQueue = uniqueQueue('proxy-batch');
let api: TestApi;
let prisma: PrismaClient;
let client: Client;
let connection: Connection;
let stopWorker: () => Promise<void>;
let block: AccessControl;
let laostaff: Session;
let laostaffUser: PortalUser;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  prisma = api.prisma;
  connection = await Connection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: api.cfg.TEMPORAL_NAMESPACE });
  stopWorker = await startWorker(api, taskQueue);
  block = (await demoRequestParts(prisma)).block;
  laostaff = await signIn(api.app, 'laostaff');
  laostaffUser = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'laostaff' } });
}, 120_000);

afterAll(async () => {
  await stopWorker?.();
  await connection?.close();
  await api?.close();
});

const names = (u: PortalUser) => ({ firstName: u.firstName, lastName: u.lastName, email: u.email });

const call = (s: Session, method: 'GET' | 'POST', url: string, body?: unknown) => caller(api.app)(s, method, url, body);

async function finished(s: Session, id: number): Promise<ProxyBatchDetail> {
  for (let i = 0; i < 300; i++) {
    const res = await call(s, 'GET', `${BATCH_URL}/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json<ProxyBatchDetail>();
    if (batch.status !== 'RUNNING') return batch;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`batch ${id} did not finish`);
}

describe('a batch through the API', () => {
  it('files one request per user in order (NEW or CHANGE), skips 601, and stores the summary', async () => {
    const users = await subjectsAt(prisma, 'MA036', 5, 'pbok');
    // User 3 has an active request: skipped. User 4 already holds the role: CHANGE.
    await prisma.accessModRequest.create({
      data: {
        workflowId: `test-open-${users[2]!.id}`,
        requestType: 'NEW',
        subjectUserId: users[2]!.id,
        requesterUserId: users[2]!.id,
        accessControls: [block],
        lastModifiedBy: 'test',
        workflowStartedAt: new Date(),
      },
    });
    await prisma.userAccess.create({
      data: { portalUserId: users[3]!.id, roleName: block.roleName, createdBy: 'test', lastModifiedBy: 'test' },
    });
    const ids = users.map((u) => u.id);
    // The requester and a repeated user are dropped.
    const res = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: [...ids, laostaffUser.id, ids[0]],
      accessControls: [block],
      requesterComments: 'Please add the study',
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json<ProxyBatchDetail>();
    expect(started.summary.totalRequests).toBe(5);
    expect(started.workflowId).toBe(`proxy-batch-${started.id}`);

    const batch = await finished(laostaff, started.id);
    expect(batch.status).toBe('COMPLETED');
    expect(batch.results.map((r) => [r.portalUserId, r.responseStatus, r.requestType])).toEqual([
      [ids[0], 200, 'NEW'],
      [ids[1], 200, 'NEW'],
      [ids[2], ACTIVE_REQUEST_EXISTS_STATUS, null],
      [ids[3], 200, 'CHANGE'],
      [ids[4], 200, 'NEW'],
    ]);
    expect(batch.results[2]).toMatchObject({ success: false, activeRequestAlreadyExistsForUser: true });
    expect(batch.summary).toEqual({
      abortedProcessing: false,
      abortStatusCode: null,
      abortStatusText: null,
      abortRequestNum: null,
      totalRequests: 5,
      numSuccesses: 4,
      numFailures: 1,
    });

    // Strictly in order: request ids and filing times grow with the request number.
    const filed = batch.results.filter((r) => r.requestId !== null);
    const rows = await prisma.accessModRequest.findMany({
      where: { id: { in: filed.map((r) => r.requestId!) } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => r.subjectUserId)).toEqual(filed.map((r) => r.portalUserId));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.sysdat >= rows[i - 1]!.sysdat).toBe(true);
    for (const row of rows) {
      expect(row).toMatchObject({ isProxyRequest: true, requesterUserId: laostaffUser.id, requestStatus: 'NEW' });
      const marker = parseProxyComment(row.requesterComments, [api.cfg.PROXY_COMMENT_MARKER]);
      expect(marker?.proxy).toEqual({ name: 'Morgan Liaison', email: 'laostaff@portal.test', id: laostaffUser.id });
      expect(marker?.subject.id).toBe(row.subjectUserId);
      expect(marker?.comment).toBe('Please add the study');
    }

    // Each filed request runs its own workflow, found by ProxyBatchId.
    for (const row of rows) {
      const handle = client.workflow.getHandle(accessChangeWorkflowId(row.id));
      const description = await handle.describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.typedSearchAttributes.get({ name: 'ProxyBatchId', type: 'KEYWORD' } as never)).toBe(
        String(batch.id),
      );
    }
    await maybeRecordHistory({ client } as never, batch.workflowId, 'proxy-batch', 'completed');

    const list = await call(laostaff, 'GET', BATCH_URL);
    expect(list.statusCode).toBe(200);
    expect(list.json().content[0]).toMatchObject({ id: batch.id, status: 'COMPLETED' });
  }, 120_000);

  it('aborts when the first user answers 304 (no changes), recording the spec text', async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pb304');
    // The first user holds exactly the requested access; no comment: nothing to submit.
    await grantBlock(prisma, users[0]!.id, block);
    const res = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: users.map((u) => u.id),
      accessControls: [block],
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = await finished(laostaff, res.json<ProxyBatchDetail>().id);
    expect(batch.status).toBe('ABORTED');
    expect(batch.summary).toEqual({
      abortedProcessing: true,
      abortStatusCode: 304,
      abortStatusText: PROXY_MESSAGES.notSubmittedNoData,
      abortRequestNum: 1,
      totalRequests: 3,
      numSuccesses: 0,
      numFailures: 1,
    });
    expect(batch.results.map((r) => r.responseStatus)).toEqual([304, null, null]);
    expect(await prisma.accessModRequest.count({ where: { subjectUserId: { in: users.map((u) => u.id) } } })).toBe(0);
  }, 60_000);

  it('validates the body once: 422 with the spec keys, nothing stored', async () => {
    const before = await prisma.proxyBatch.count();
    const bad = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: [],
      accessControls: [{ ...block, roleName: 'No Such Role' }],
      requesterComments: 'x'.repeat(251),
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['portalUserIds', 'requesterComments']);
    const unknownRole = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: [(await subjectsAt(prisma, 'MA036', 1, 'pbv'))[0]!.id],
      accessControls: [{ ...block, roleName: 'No Such Role' }],
    });
    expect(unknownRole.statusCode).toBe(422);
    expect(unknownRole.json().fieldErrors['accessControls[0].roleName']).toEqual(['unknown']);
    expect(await prisma.proxyBatch.count()).toBe(before);
  });
});

describe('the batch workflow', () => {
  /** Files `users` through the API while user 1's filing lock is held, deactivates `deactivate`, then lets it run. */
  async function deactivatedAfterSubmission(users: PortalUser[], deactivate: PortalUser): Promise<ProxyBatchDetail> {
    const reviewer = await signIn(api.app, 'reviewer');
    const release = await holdFilingLock(prisma, users[0]!.id);
    try {
      const res = await call(laostaff, 'POST', BATCH_URL, {
        portalUserIds: users.map((u) => u.id),
        accessControls: [block],
      });
      expect(res.statusCode, res.body).toBe(200);
      const off = await caller(api.app)(
        reviewer,
        'PUT',
        `/rest/secure/user_management/deactivate_user/${deactivate.id}`,
      );
      expect(off.statusCode, off.body).toBe(200);
      await release();
      return await finished(laostaff, res.json<ProxyBatchDetail>().id);
    } finally {
      await release();
    }
  }

  it('aborts when the first user, deactivated after submission, answers 422 (001 §4)', async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pb422a');
    const aborted = await deactivatedAfterSubmission(users, users[0]!);
    expect(aborted).toMatchObject({ status: 'ABORTED', processed: 1 });
    expect(aborted.summary).toEqual({
      abortedProcessing: true,
      abortStatusCode: 422,
      abortStatusText: PROXY_MESSAGES.notSubmittedErrors,
      abortRequestNum: 1,
      totalRequests: 3,
      numSuccesses: 0,
      numFailures: 1,
    });
    expect(aborted.results.map((r) => r.responseStatus)).toEqual([422, null, null]);
    expect(await prisma.accessModRequest.count({ where: { subjectUserId: { in: users.map((u) => u.id) } } })).toBe(0);
    await maybeRecordHistory({ client } as never, aborted.workflowId, 'proxy-batch', 'aborted');
  }, 60_000);

  it('only records the 422 of a later user deactivated after submission', async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pb422b');
    const done = await deactivatedAfterSubmission(users, users[1]!);
    expect(done).toMatchObject({ status: 'COMPLETED', processed: 3 });
    expect(done.summary).toMatchObject({ abortedProcessing: false, numSuccesses: 2, numFailures: 1 });
    expect(done.results.map((r) => r.responseStatus)).toEqual([200, 422, 200]);
  }, 60_000);
});

describe('a batch whose workflow start was lost (rule 1)', () => {
  it("is started by the worker's reconciler and runs to its end", async () => {
    const users = await subjectsAt(prisma, 'MA036', 2, 'pbrec');
    const batch = await prisma.proxyBatch.create({
      data: {
        workflowId: `pending-${users[0]!.id}`,
        proxyUserId: laostaffUser.id,
        accessControls: [block],
        totalRequests: 2,
        sysdat: new Date(Date.now() - 5 * 60_000),
      },
    });
    await prisma.proxyBatch.update({ where: { id: batch.id }, data: { workflowId: proxyBatchWorkflowId(batch.id) } });
    await prisma.proxyBatchItem.createMany({
      data: users.map((u, i) => ({ batchId: batch.id, requestNum: i + 1, portalUserId: u.id, ...names(u) })),
    });
    const repaired = await reconcileUnstartedRequests({ prisma, client, taskQueue, graceMs: 0 });
    expect(repaired).toContain(proxyBatchWorkflowId(batch.id));
    expect(await batchEnded(prisma, batch.id)).toMatchObject({ status: 'COMPLETED', numSuccesses: 2 });
    expect((await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batch.id } })).workflowStartedAt).not.toBeNull();
  });
});

describe('a batch longer than one run', () => {
  it('continues as new every 100 users and still files every user once, in order', async () => {
    const users = await subjectsAt(prisma, 'MA036', 105, 'pbcan');
    const id = await fileBatch(api, laostaff, users, block);
    const done = await batchEnded(prisma, id, 180_000);
    expect(done).toMatchObject({ status: 'COMPLETED', processed: 105, numSuccesses: 105 });
    const items = await prisma.proxyBatchItem.findMany({ where: { batchId: id }, orderBy: { requestNum: 'asc' } });
    const ids = items.map((i) => i.accessModRequestId!);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // The row is finished just before the workflow returns; visibility then lists both runs eventually.
    expect(await client.workflow.getHandle(done.workflowId).result()).toEqual({
      processed: 105,
      successes: 105,
      failures: 0,
    });
    let runs: { runId: string; status: { name: string } }[] = [];
    const closed = () => runs.length === 2 && runs.every((r) => r.status.name !== 'RUNNING');
    for (let i = 0; i < 100 && !closed(); i++) {
      runs = [];
      for await (const run of client.workflow.list({ query: `WorkflowId = "${done.workflowId}"` })) runs.push(run);
      if (!closed()) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs.map((r) => r.status.name).sort()).toEqual(['COMPLETED', 'CONTINUED_AS_NEW']);
    if (process.env.RECORD_HISTORIES === '1') {
      const first = runs.find((r) => r.status.name === 'CONTINUED_AS_NEW')!;
      const history = await client.workflow.getHandle(done.workflowId, first.runId).fetchHistory();
      const file = path.join(HISTORIES_DIR, 'proxy-batch', 'continued-as-new.json');
      fs.writeFileSync(file, historyToJSON(history));
    }
  }, 240_000);
});

describe('a proxy without forAllUsers reaches only their own sites', () => {
  it('refuses the batch, the single POST and the user list outside them', async () => {
    const proxy = await createTestUser(api, 'pbproxy');
    await prisma.userAccess.create({
      data: {
        portalUserId: proxy.user.id,
        roleName: 'LAO Staff',
        laoIds: ['MA036'],
        createdBy: 't',
        lastModifiedBy: 't',
      },
    });
    const session = await signIn(api.app, proxy.username, proxy.password);
    const related = await prisma.siteRelation.findMany({ where: { laoCode: 'MA036' }, select: { siteCode: true } });
    const outsideSite = await prisma.site.findFirstOrThrow({
      where: { siteType: 'AO', siteCode: { notIn: ['MA036', ...related.map((r) => r.siteCode)] } },
    });
    const [inside] = await subjectsAt(prisma, 'MA036', 1, 'pbin');
    const [outside] = await subjectsAt(prisma, outsideSite.siteCode, 1, 'pbout');

    const profile = await call(session, 'GET', '/rest/secure/user_profile');
    expect(profile.json().canSubmitProxyAccessChangeRequests).toEqual({ canSubmit: true, forAllUsers: false });

    const refused = await call(session, 'POST', BATCH_URL, {
      portalUserIds: [inside!.id, outside!.id],
      accessControls: [block],
    });
    expect(refused.statusCode).toBe(403);
    const single = (subject: PortalUser) =>
      call(session, 'POST', '/rest/secure/user_access_mod_request', {
        portalUserId: subject.id,
        requestType: 'NEW',
        accessControls: [block],
        requesterComments: 'single',
      });
    expect((await single(outside!)).statusCode).toBe(403);
    const ok = await single(inside!);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ isProxyRequest: true, proxyUserId: proxy.user.id, subjectUserId: inside!.id });
    expect(parseProxyComment(ok.json().requesterComments, [api.cfg.PROXY_COMMENT_MARKER])?.comment).toBe('single');

    const users = (q: string) => call(session, 'GET', `/rest/secure/user_management/users?size=200&${q}`);
    expect((await users(`siteCode=${outsideSite.siteCode}`)).statusCode).toBe(403);
    expect((await users('unaffiliated=true')).statusCode).toBe(403);
    expect((await users('')).statusCode).toBe(403);
    const own = await users('laoCode=MA036&filter=pbin');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().content.map((u: { id: number }) => u.id)).toContain(inside!.id);

    // A user without the proxy right: 403 on every proxy call.
    const plain = await signIn(api.app, 'user');
    expect(
      (await call(plain, 'POST', BATCH_URL, { portalUserIds: [inside!.id], accessControls: [block] })).statusCode,
    ).toBe(403);
    expect((await call(plain, 'GET', BATCH_URL)).statusCode).toBe(403);
    expect((await caller(api.app)(plain, 'GET', '/rest/secure/user_management/users?laoCode=MA036')).statusCode).toBe(
      403,
    );
  }, 60_000);

  it('lists unaffiliated users for a proxy with forAllUsers', async () => {
    const lonely = await prisma.portalUser.create({
      data: {
        username: `pblonely${Date.now()}`,
        firstName: 'Lonely',
        lastName: 'Unaffiliated',
        email: `pblonely${Date.now()}@it.portal.test`,
      },
    });
    const res = await call(
      laostaff,
      'GET',
      `/rest/secure/user_management/users?unaffiliated=true&filter=pblonely&size=200`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content.map((u: { id: number }) => u.id)).toContain(lonely.id);
    const sited = await call(
      laostaff,
      'GET',
      `/rest/secure/user_management/users?unaffiliated=true&filter=pbok&size=200`,
    );
    expect(sited.json().content).toEqual([]);
  });
});
