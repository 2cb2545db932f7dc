/**
 * The access-change workflow on a real Temporal dev server with the worker in-process and the activities
 * writing the real PostgreSQL: happy path, illegal transition, stale version, a worker restart in the
 * middle, and a replay of a recorded history (ARCHITECTURE.md; issue 2 §7).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import type { PrismaClient } from '@portal/db';
import {
  ACCESS_CHANGE_WORKFLOW_TYPE,
  type AccessChangeInput,
  type ReviewInput,
  RequestStatusKey,
  RequestTypeKey,
  RequesterUserIdKey,
  SubjectUserIdKey,
  ProxyBatchIdKey,
  accessChangeWorkflowId,
  reviewUpdate,
  stateQuery,
} from '@portal/workflows';
import { createWorker, workflowsPath } from '@portal/worker';
import { demoRequestParts, stackEnv, testMailSettings, testPrisma, waitForMail } from './fixtures';

const HISTORY_FILE = path.join(import.meta.dirname, '..', 'histories', 'access-change-approved.json');
const reviewer = { userId: 2, username: 'reviewer', permissions: ['WRITE_USERS', 'READ_USERS', 'USER'] };

let env: TestWorkflowEnvironment;
let prisma: PrismaClient;
let taskQueue: string;

beforeAll(async () => {
  prisma = testPrisma();
  env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: stackEnv().TEMPORAL_BIN! },
      searchAttributes: [RequestTypeKey, RequestStatusKey, SubjectUserIdKey, RequesterUserIdKey, ProxyBatchIdKey],
    },
  });
  taskQueue = `wf-test-${Date.now()}`;
});

afterAll(async () => {
  await env?.teardown();
  await prisma?.$disconnect();
});

const newWorker = () =>
  createWorker({ connection: env.nativeConnection, namespace: 'default', taskQueue, prisma, mail: testMailSettings() });

/** Files a request row as the API does and starts its workflow. */
async function fileRequest(): Promise<{ id: number; handle: WorkflowHandle; subjectId: number }> {
  const { user, block } = await demoRequestParts(prisma);
  await prisma.userAccess.updateMany({
    where: { portalUserId: user.id, roleName: block.roleName },
    data: { inactive: true },
  });
  const row = await prisma.accessModRequest.create({
    data: {
      workflowId: `tmp-${Date.now()}-${Math.random()}`,
      requestType: 'NEW',
      subjectUserId: user.id,
      requesterUserId: user.id,
      accessControls: [block],
      lastModifiedBy: user.username,
    },
  });
  const workflowId = accessChangeWorkflowId(row.id);
  await prisma.accessModRequest.update({ where: { id: row.id }, data: { workflowId } });
  const input: AccessChangeInput = {
    requestId: row.id,
    requestType: 'NEW',
    subjectUserId: user.id,
    requesterUserId: user.id,
  };
  const handle = await env.client.workflow.start(ACCESS_CHANGE_WORKFLOW_TYPE, { workflowId, taskQueue, args: [input] });
  return { id: row.id, handle, subjectId: user.id };
}

const review = (over: Partial<ReviewInput>): ReviewInput => ({
  expectedVersion: 0,
  requestStatus: 'IN_PROGRESS',
  reviewerComments: '',
  sysaidTicket: '',
  actor: reviewer,
  ...over,
});

async function failureType(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as { type?: string } | undefined)?.type;
    throw err;
  }
  return undefined;
}

describe('access-change workflow', () => {
  it('moves NEW → IN_PROGRESS → APPROVED, projecting each step and applying the access', async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const { id, handle, subjectId } = await fileRequest();
      expect((await handle.query(stateQuery)).status).toBe('NEW');

      const s1 = await handle.executeUpdate(reviewUpdate, { args: [review({ sysaidTicket: 'T-100' })] });
      expect(s1).toMatchObject({ status: 'IN_PROGRESS', version: 1, sysaidTicket: 'T-100' });
      // read-your-writes: the update returned after the projection was written
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
        requestStatus: 'IN_PROGRESS',
        versionno: 1,
        sysaidTicket: 'T-100',
        lastModifiedBy: 'reviewer',
      });

      const s2 = await handle.executeUpdate(reviewUpdate, {
        args: [
          review({ expectedVersion: 1, requestStatus: 'APPROVED', reviewerComments: 'ok', sysaidTicket: 'T-100' }),
        ],
      });
      expect(s2).toMatchObject({ status: 'APPROVED', version: 2, accessApplied: true });
      expect((await handle.result()).status).toBe('APPROVED');
      const mail = await waitForMail('user@portal.test', `#${id} was approved`);
      expect(mail.text).toContain('Reviewer comments: ok');
      expect(mail.text).toContain('/app/profile?tab=history');

      const access = await prisma.userAccess.findMany({ where: { sourceRequestId: id } });
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({ portalUserId: subjectId, roleName: 'Data Manager', inactive: false });
      const audits = await prisma.auditEvent.findMany({
        where: { workflowId: handle.workflowId },
        orderBy: { id: 'asc' },
      });
      expect(audits.map((a) => a.action)).toEqual(['STATUS_IN_PROGRESS', 'APPLY_NEW', 'STATUS_APPROVED', 'MAIL_SENT']);

      const desc = await handle.describe();
      expect(desc.typedSearchAttributes.get(RequestStatusKey)).toBe('APPROVED');
      expect(desc.typedSearchAttributes.get(RequestTypeKey)).toBe('ACCESS_CHANGE');
      expect(desc.typedSearchAttributes.get(SubjectUserIdKey)).toBe(subjectId);

      if (!fs.existsSync(HISTORY_FILE) || process.env.RECORD_HISTORIES === '1') {
        // The CLI writes the canonical proto JSON that historyFromJSON reads.
        const json = execFileSync(stackEnv().TEMPORAL_BIN!, [
          'workflow',
          'show',
          '--workflow-id',
          handle.workflowId,
          '--address',
          env.address,
          '--output',
          'json',
        ]);
        fs.writeFileSync(HISTORY_FILE, json);
      }
    });
  });

  it('rejects an illegal transition and a stale version in the validator, writing nothing', async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const { id, handle } = await fileRequest();
      await handle.executeUpdate(reviewUpdate, { args: [review({})] });

      expect(
        await failureType(
          handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'NEW' })] }),
        ),
      ).toBe('ILLEGAL_TRANSITION');
      expect(
        await failureType(
          handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 0, requestStatus: 'REJECTED' })] }),
        ),
      ).toBe('STALE_VERSION');
      const readOnly = { userId: 3, username: 'readonly', permissions: ['READ_USERS', 'USER'] };
      expect(
        await failureType(
          handle.executeUpdate(reviewUpdate, {
            args: [review({ expectedVersion: 1, requestStatus: 'REJECTED', actor: readOnly })],
          }),
        ),
      ).toBe('PERMISSION_DENIED');

      const row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ requestStatus: 'IN_PROGRESS', versionno: 1 });
      expect(await prisma.auditEvent.count({ where: { workflowId: handle.workflowId } })).toBe(1);
      // Rejected updates leave no trace in the history: only the accepted one is recorded.
      const history = await handle.fetchHistory();
      const accepted = history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
      expect(accepted).toHaveLength(1);

      await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })] });
      expect((await handle.result()).status).toBe('REJECTED');
      expect(await prisma.userAccess.count({ where: { sourceRequestId: id } })).toBe(0);
    });
  });

  it('survives a worker restart in the middle of a request', async () => {
    const first = await newWorker();
    const { id, handle } = await first.runUntil(async () => {
      const filed = await fileRequest();
      await filed.handle.executeUpdate(reviewUpdate, { args: [review({})] });
      return filed;
    });
    // No worker is polling now: the reviewer's approval waits for one, then completes on the new worker.
    const approval = handle.executeUpdate(reviewUpdate, {
      args: [review({ expectedVersion: 1, requestStatus: 'APPROVED', reviewerComments: 'after restart' })],
    });
    const second = await newWorker();
    const state = await second.runUntil(approval);
    expect(state).toMatchObject({ status: 'APPROVED', version: 2 });
    expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
      requestStatus: 'APPROVED',
      reviewerComments: 'after restart',
    });
    expect(await prisma.userAccess.count({ where: { sourceRequestId: id } })).toBe(1);
  });

  it('replays the recorded history of an approved request deterministically', async () => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(HISTORY_FILE, 'utf8')));
    await expect(Worker.runReplayHistory({ workflowsPath }, history)).resolves.toBeUndefined();
  });
});
