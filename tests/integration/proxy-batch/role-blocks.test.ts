/**
 * A proxy batch with more than one role block (001 §2.7, §4 Proxy submission): every selected user gets one
 * request per block, filed in order (a user's blocks one after another) through the one filing module, each
 * with its own result; a 601 (an active request the batch did not file) and a refusal are per user and
 * block; 001 §4's abort applies to the first user's first block only, a later block's 304 is only recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessControl, type ProxyBatchDetail, PROXY_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { demoRequestParts, grantBlock } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { uniqueQueue } from '../lifecycle/support';
import { BATCH_URL, subjectsAt } from './support';

const taskQueue = uniqueQueue('proxy-blocks');
let api: TestApi;
let prisma: PrismaClient;
let stopWorker: () => Promise<void>;
let laostaff: Session;
let dm: AccessControl;
let sr: AccessControl;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  prisma = api.prisma;
  stopWorker = await startWorker(api, taskQueue);
  laostaff = await signIn(api.app, 'laostaff');
  dm = (await demoRequestParts(prisma)).block;
  const safety = await prisma.studyRole.findUniqueOrThrow({
    where: { roleName: 'Safety Reviewer' },
    include: { systems: true },
  });
  sr = {
    questionNum: 2,
    roleName: safety.roleName,
    siteCodes: [],
    laoIds: [],
    studyNames: [],
    systemAccessIds: safety.systems.map((s) => s.systemId),
  };
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

async function run(
  users: { id: number }[],
  blocks: AccessControl[],
  requesterComments = '',
): Promise<ProxyBatchDetail> {
  const call = caller(api.app);
  const res = await call(laostaff, 'POST', BATCH_URL, {
    portalUserIds: users.map((u) => u.id),
    accessControls: blocks,
    requesterComments,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<ProxyBatchDetail>().id;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const batch = (await call(laostaff, 'GET', `${BATCH_URL}/${id}`)).json<ProxyBatchDetail>();
    if (batch.status !== 'RUNNING') return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const outcomes = (b: ProxyBatchDetail) =>
  b.results.map((r) => [r.requestNum, r.portalUserId, r.blockNum, r.responseStatus, r.requestType]);

describe('a batch of two role blocks', () => {
  it('files one request per user and block, in order; a 601 is per user and block', async () => {
    const users = await subjectsAt(prisma, 'MA036', 3, 'pbrb');
    // User 2 has an active request the batch did not file: both of their blocks are skipped (601).
    await prisma.accessModRequest.create({
      data: {
        workflowId: `test-open-rb-${users[1]!.id}`,
        requestType: 'NEW',
        subjectUserId: users[1]!.id,
        requesterUserId: users[1]!.id,
        accessControls: [dm],
        lastModifiedBy: 'test',
      },
    });
    // User 3 already holds the second block's role: that request is a CHANGE (filed: it has a comment).
    await grantBlock(prisma, users[2]!.id, sr);
    const batch = await run(users, [dm, sr], 'Annual access review.');
    expect(batch.status).toBe('COMPLETED');
    const [u1, u2, u3] = users.map((u) => u.id);
    expect(outcomes(batch)).toEqual([
      [1, u1, 1, 200, 'NEW'],
      [2, u1, 2, 200, 'NEW'],
      [3, u2, 1, 601, null],
      [4, u2, 2, 601, null],
      [5, u3, 1, 200, 'NEW'],
      [6, u3, 2, 200, 'CHANGE'],
    ]);
    expect(batch.summary).toMatchObject({
      totalRequests: 6,
      numSuccesses: 4,
      numFailures: 2,
      abortedProcessing: false,
    });
    // Each request carries its own block, filed in the batch's order.
    const requests = await prisma.accessModRequest.findMany({
      where: { id: { in: batch.results.flatMap((r) => (r.requestId ? [r.requestId] : [])) } },
      orderBy: { id: 'asc' },
    });
    expect(requests.map((r) => [r.subjectUserId, (r.accessControls as AccessControl[])[0]!.roleName])).toEqual([
      [u1, dm.roleName],
      [u1, sr.roleName],
      [u3, dm.roleName],
      [u3, sr.roleName],
    ]);
    expect(requests.every((r) => r.isProxyRequest)).toBe(true);
  });

  it("aborts on the first user's first block only; a later block's 304 is recorded", async () => {
    const first = await subjectsAt(prisma, 'MA036', 2, 'pbra');
    // The first user's first block asks for exactly what they hold, with no comment: 304 aborts the run.
    await grantBlock(prisma, first[0]!.id, dm);
    const aborted = await run(first, [dm, sr]);
    expect(aborted.status).toBe('ABORTED');
    expect(aborted.summary).toMatchObject({
      abortedProcessing: true,
      abortStatusCode: 304,
      abortStatusText: PROXY_MESSAGES.notSubmittedNoData,
      abortRequestNum: 1,
      totalRequests: 4,
    });
    expect(aborted.results.map((r) => r.responseStatus)).toEqual([304, null, null, null]);

    const later = await subjectsAt(prisma, 'MA036', 2, 'pbrl');
    // The first user's second block answers 304: only recorded, the run goes on.
    await grantBlock(prisma, later[0]!.id, sr);
    const recorded = await run(later, [dm, sr]);
    expect(recorded.status).toBe('COMPLETED');
    expect(recorded.results.map((r) => r.responseStatus)).toEqual([200, 304, 200, 200]);
  });

  it('refuses the same study role in two blocks (001 §5)', async () => {
    const [u] = await subjectsAt(prisma, 'MA036', 1, 'pbrd');
    const res = await caller(api.app)(laostaff, 'POST', BATCH_URL, {
      portalUserIds: [u!.id],
      accessControls: [dm, { ...dm, questionNum: 2 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().fieldErrors).toEqual({ accessControls: ['unique'] });
  });
});
