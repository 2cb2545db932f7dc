/**
 * The API side of the lifecycle (REQUEST-LIFECYCLE rules 1 and 6) against the real stack: filing commits
 * before it starts (a failed commit starts nothing; a failed start still files, and the reconciler starts
 * it), a save with no worker answers 202 within the deadline and its retry with the same attempt key
 * completes once, a save while another runs is told "busy" (409), and two reviewers saving the same
 * version get one success and one "stale".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { WorkflowNotFoundError } from '@temporalio/client';
import { MESSAGES } from '@portal/contract';
import { LOCK_NAMESPACES, type PrismaClient, lockUserAccess, poolConfigFromUrl } from '@portal/db';
import { reconcileUnstartedRequests } from '@portal/worker';
import { createTestUser } from '../auth-helpers';
import { demoRequestParts, stackEnv } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { auditActions, uniqueQueue } from './support';

const REVIEW_URL = '/rest/secure/user_management/review_access_change_request';
const taskQueue = uniqueQueue('lifecycle-api');
let api: TestApi;
let prisma: PrismaClient;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, REVIEW_DEADLINE_MS: '2000' });
  prisma = api.prisma;
  stopWorker = await startWorker(api, taskQueue);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

/** Files a NEW request as `username` (for themself, with `comments`) through `target`'s API. */
async function file(target: TestApi, username: string, comments = ''): Promise<LightMyRequestResponse> {
  const session = await signIn(target.app, username);
  const { user, block } = await demoRequestParts(prisma, username);
  await prisma.userAccess.updateMany({
    where: { portalUserId: user.id, roleName: block.roleName },
    data: { inactive: true },
  });
  return caller(target.app)(session, 'POST', '/rest/secure/user_access_mod_request', {
    portalUserId: user.id,
    requestType: 'NEW',
    accessControls: [block],
    requesterComments: comments,
  });
}

const save = (
  target: TestApi,
  s: Session,
  request: { id: number },
  versionno: number,
  requestStatus: string,
  attemptKey: string,
) =>
  caller(target.app)(s, 'PUT', REVIEW_URL, {
    userAccessModificationRequest: { id: request.id, versionno, requestStatus },
    attemptKey,
  });

/** `save`, sent again with the same attempt key while it answers 202 (as the browser does). */
async function settled(...args: Parameters<typeof save>): Promise<LightMyRequestResponse> {
  let res = await save(...args);
  for (let i = 0; i < 10 && res.statusCode === 202; i++) res = await save(...args);
  return res;
}

describe('filing: commit, then start (rule 1)', () => {
  it('starts no workflow when the filing transaction fails, and answers 503 with nothing stored', async () => {
    // PostgreSQL refuses this one filing's insert (a trigger on the comment it carries): the transaction fails.
    const marker = 'injected: the filing commit fails';
    await prisma.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION lifecycle_refuse_filing() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."requesterComments" = '${marker}' THEN RAISE EXCEPTION 'injected: the filing commit failed'; END IF;
        RETURN NEW;
      END $$`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER lifecycle_refuse_filing BEFORE INSERT ON "AccessModRequest"
        FOR EACH ROW EXECUTE FUNCTION lifecycle_refuse_filing()`);
    try {
      const before = await prisma.accessModRequest.count();
      const res = await file(api, 'laostaff', marker);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(MESSAGES.access.newRequestFailed);
      expect(await prisma.accessModRequest.count()).toBe(before);
      const [{ last }] = await prisma.$queryRaw<[{ last: bigint }]>`
        SELECT last_value AS last FROM "AccessModRequest_id_seq"`;
      expect(await prisma.auditEvent.count({ where: { entityType: 'AccessModRequest', entityId: String(last) } })).toBe(
        0,
      );
      await expect(api.deps.temporal.workflow.getHandle(`access-change-${last}`).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
    } finally {
      await prisma.$executeRawUnsafe('DROP TRIGGER lifecycle_refuse_filing ON "AccessModRequest"');
      await prisma.$executeRawUnsafe('DROP FUNCTION lifecycle_refuse_filing()');
    }
  });

  it('files the request when only the start fails, and the reconciler starts it once', async () => {
    const cut = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_ADDRESS: '127.0.0.1:9' });
    let filed: { id: number; workflowId: string };
    try {
      const res = await file(cut, 'laostaff');
      expect(res.statusCode).toBe(200);
      filed = res.json();
      expect(filed).toMatchObject({ requestStatus: 'NEW', workflowId: `access-change-${filed.id}` });
    } finally {
      await cut.close();
    }
    expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
      workflowStartedAt: null,
    });
    const handle = api.deps.temporal.workflow.getHandle(filed.workflowId);
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const pass = () => reconcileUnstartedRequests({ prisma, client: api.deps.temporal, taskQueue, graceMs: 0 });
    expect(await pass()).toContain(filed.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(
      (await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).workflowStartedAt,
    ).not.toBeNull();
    expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'WORKFLOW_RECONCILED']);
    expect(await pass()).not.toContain(filed.workflowId);

    const reviewer = await signIn(api.app, 'reviewer');
    expect((await settled(api, reviewer, filed, 0, 'REJECTED', 'reconciled-0001')).statusCode).toBe(200);
  });
});

describe('filing: a transaction that cannot go on', () => {
  it('answers 503 within the deadline while the filing lock is held elsewhere, stores nothing, and files once it is free', async () => {
    const subject = await createTestUser(api, 'lockheld');
    const session = await signIn(api.app, subject.username, subject.password);
    const { block } = await demoRequestParts(prisma);
    const body = { portalUserId: subject.user.id, requestType: 'NEW', accessControls: [block] };
    const filed = () => prisma.accessModRequest.count({ where: { subjectUserId: subject.user.id } });
    // Another session holds the subject's filing lock and never lets go (a stuck filing elsewhere): this
    // filing's transaction waits on PostgreSQL past its deadline.
    const holder = new pg.Client(poolConfigFromUrl(stackEnv().DATABASE_URL!));
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACES.ACCESS_CHANGE, subject.user.id]);
      const waiting = caller(api.app)(session, 'POST', '/rest/secure/user_access_mod_request', body);
      const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref());
      const res = await Promise.race([waiting, hung]);
      if (res === 'hung') throw new Error('the filing was not answered within 30 s');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: MESSAGES.access.newRequestFailed });
      expect(await filed()).toBe(0);
      await holder.query('ROLLBACK');
      const again = await caller(api.app)(session, 'POST', '/rest/secure/user_access_mod_request', body);
      expect(again.statusCode, again.body).toBe(200);
      expect(await filed()).toBe(1);
    } finally {
      await holder.end();
    }
  });
});

describe('saves: deadline, busy and stale (rule 6)', () => {
  it('answers 202 within the deadline when no worker runs, and a retry with the same attempt key completes once', async () => {
    const idleQueue = uniqueQueue('lifecycle-api-idle');
    const idle = await startApi({ TEMPORAL_TASK_QUEUE: idleQueue, REVIEW_DEADLINE_MS: '1500' });
    let stopIdleWorker: (() => Promise<void>) | undefined;
    try {
      const filed = await file(idle, 'laostaff');
      expect(filed.statusCode).toBe(200);
      const request = filed.json();
      const reviewer = await signIn(idle.app, 'reviewer');
      const started = Date.now();
      const first = await save(idle, reviewer, request, 0, 'IN_PROGRESS', 'attempt-aaaa-0001');
      // The save waited out its deadline before answering 202 (a lower bound: a busy machine may answer later).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500 - 50);
      expect(first.statusCode).toBe(202);
      expect(first.json()).toEqual({ status: 'PROCESSING', message: MESSAGES.access.reviewProcessing });

      stopIdleWorker = await startWorker(idle, idleQueue);
      // The browser retries the same attempt while it is told 202 (a cold worker may need more than one deadline).
      let retry = await save(idle, reviewer, request, 0, 'IN_PROGRESS', 'attempt-aaaa-0001');
      for (let i = 0; i < 10 && retry.statusCode === 202; i++) {
        retry = await save(idle, reviewer, request, 0, 'IN_PROGRESS', 'attempt-aaaa-0001');
      }
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toMatchObject({ requestStatus: 'IN_PROGRESS', versionno: 1 });
      const again = await save(idle, reviewer, request, 0, 'IN_PROGRESS', 'attempt-aaaa-0001');
      expect(again.statusCode).toBe(200);
      expect((await auditActions(prisma, request.workflowId)).filter((a) => a === 'STATUS_IN_PROGRESS')).toHaveLength(
        1,
      );
      const history = await idle.deps.temporal.workflow.getHandle(request.workflowId).fetchHistory();
      expect(history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);

      expect((await settled(idle, reviewer, request, 1, 'REJECTED', 'attempt-bbbb-0002')).statusCode).toBe(200);
    } finally {
      await stopIdleWorker?.();
      await idle.close();
    }
  });

  it('tells a second reviewer "busy" while a save runs, then "stale" once it committed', async () => {
    const filed = await file(api, 'readonly');
    expect(filed.statusCode).toBe(200);
    const request = filed.json();
    const reviewer = await signIn(api.app, 'reviewer');
    const admin = await signIn(api.app, 'admin');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = prisma.$transaction(
      async (tx) => {
        await lockUserAccess(tx, request.subjectUserId);
        await held;
      },
      { timeout: 60_000 },
    );
    try {
      const first = await save(api, reviewer, request, 0, 'IN_PROGRESS', 'busy-aaaa-0001');
      expect(first.statusCode).toBe(202);
      const second = await save(api, admin, request, 0, 'PENDING_REVIEW', 'busy-bbbb-0001');
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({
        fieldErrors: {},
        globalErrors: ['REVIEW_IN_PROGRESS'],
        message: MESSAGES.access.reviewBusy,
      });
    } finally {
      release();
      await holder;
    }
    const retried = await settled(api, reviewer, request, 0, 'IN_PROGRESS', 'busy-aaaa-0001');
    expect(retried.statusCode).toBe(200);
    const stale = await save(api, admin, request, 0, 'PENDING_REVIEW', 'busy-bbbb-0002');
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toEqual({ fieldErrors: {}, globalErrors: ['STALE_VERSION'] });
    expect((await settled(api, admin, request, 1, 'REJECTED', 'busy-bbbb-0003')).statusCode).toBe(200);
  });

  it('gives two reviewers saving the same version one success and one stale', async () => {
    const filed = await file(api, 'forgetful');
    expect(filed.statusCode).toBe(200);
    const request = filed.json();
    const reviewer = await signIn(api.app, 'reviewer');
    const admin = await signIn(api.app, 'admin');
    const [a, b] = await Promise.all([
      settled(api, reviewer, request, 0, 'IN_PROGRESS', 'race-aaaa-0001'),
      settled(api, admin, request, 0, 'REJECTED', 'race-bbbb-0001'),
    ]);
    const codes = [a.statusCode, b.statusCode];
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    const [loser, loserSession, status] = a.statusCode === 200 ? [b, admin, 'REJECTED'] : [a, reviewer, 'IN_PROGRESS'];
    expect([409, 422]).toContain(loser.statusCode);
    // "Busy" means try again: the retry of a save that lost the race is told it is stale, or, when the winner
    // resolved the request and its workflow has already completed, that the request is resolved (an update to a
    // completed workflow answers so before any version is compared; a fresh-clone run saw it).
    const retry =
      loser.statusCode === 409 ? await save(api, loserSession, request, 0, status, 'race-cccc-0002') : loser;
    expect(retry.statusCode).toBe(422);
    const winnerResolved = status === 'IN_PROGRESS';
    if (winnerResolved && (retry.json().globalErrors ?? []).length === 0) {
      expect(JSON.stringify(retry.json().fieldErrors)).toContain('The request is resolved');
    } else {
      expect(retry.json().globalErrors).toEqual(['STALE_VERSION']);
    }
    const row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(row.versionno).toBe(1);
    if (row.requestStatus !== 'REJECTED') {
      expect((await settled(api, admin, request, 1, 'REJECTED', 'race-dddd-0003')).statusCode).toBe(200);
    }
  });
});
