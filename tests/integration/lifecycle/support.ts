/**
 * Shared setup of the lifecycle tests: a client of the test stack's Temporal dev server, the workflow code
 * bundled once per run (global-setup.ts), in-process workers on a task queue of their own (with activity overrides or a
 * wrapped Prisma client to make a dependency fail on purpose), requests filed through the API's route, and
 * recording of histories (RECORD_HISTORIES=1 only; a missing history fails the replay test).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection } from '@temporalio/worker';
import {
  type AccessControl,
  type AccessReviewPayload,
  AccessControlSchema,
  type RequestStatus,
  type RequestType,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { ReviewInput } from '@portal/workflows';
import { type MailSettings, type PortalActivities, createWorker } from '@portal/worker';
import { createTestUser } from '../auth-helpers';
import { demoRequestParts, grantBlock, stackEnv, testMailSettings, testPrisma } from '../fixtures';
import { type TestApi, caller, signIn, startApi } from '../harness';

export const HISTORIES_DIR = path.join(import.meta.dirname, '..', '..', 'histories');

/** The workflow code, bundled once for the whole run by the global setup (with the tracing interceptors). */
export const workflowBundle = (): { codePath: string } => ({ codePath: stackEnv().WORKFLOW_BUNDLE! });

export interface TemporalTestEnv {
  client: Client;
  native: NativeConnection;
  close(): Promise<void>;
}

/** Connects to the stack's Temporal dev server (search attributes registered by the global setup). */
export async function connectTemporal(): Promise<TemporalTestEnv> {
  const address = stackEnv().TEMPORAL_ADDRESS!;
  const connection = await Connection.connect({ address });
  const native = await NativeConnection.connect({ address });
  return {
    client: new Client({ connection, namespace: 'default' }),
    native,
    close: async () => {
      await connection.close();
      await native.close();
    },
  };
}

/**
 * Connects a Prisma client and the Temporal clients before the file's tests and closes them after;
 * `use` receives them (assign them to the file's variables).
 */
export function useLifecycleStack(use: (env: TemporalTestEnv, prisma: PrismaClient) => void): void {
  let env: TemporalTestEnv | undefined;
  let prisma: PrismaClient | undefined;
  beforeAll(async () => {
    prisma = testPrisma();
    env = await connectTemporal();
    use(env, prisma);
  });
  afterAll(async () => {
    await closeFilingApis();
    await env?.close();
    await prisma?.$disconnect();
  });
}

export const uniqueQueue = (name: string): string => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** A worker on `taskQueue`; `overrides` replace single activities, `prisma` may be a faulty wrapper. */
export async function newWorker(
  env: TemporalTestEnv,
  prisma: PrismaClient,
  taskQueue: string,
  opts: { overrides?: Partial<PortalActivities>; mail?: MailSettings; activitySlots?: number } = {},
) {
  return createWorker({
    connection: env.native,
    namespace: 'default',
    taskQueue,
    prisma,
    mail: opts.mail ?? testMailSettings(),
    overrides: opts.overrides,
    activitySlots: opts.activitySlots,
    workflowBundle: workflowBundle(),
  });
}

export interface FiledRequest {
  id: number;
  workflowId: string;
  subjectId: number;
  /** The subject's address, where the resolution mail goes. */
  email: string;
  /** The subject's password (they filed for themself): route tests sign them in. */
  password: string;
  roleName: string;
}

/** The APIs `fileAccessRequest` files through, one per task queue and deadlines; closed after the file. */
const filingApis = new Map<string, Promise<TestApi>>();

function filingApi(taskQueue: string, env: Record<string, string>): Promise<TestApi> {
  const key = JSON.stringify([taskQueue, env]);
  let api = filingApis.get(key);
  if (!api) {
    api = startApi({ TEMPORAL_TASK_QUEUE: taskQueue, ...env });
    filingApis.set(key, api);
  }
  return api;
}

/** Closes the APIs `fileAccessRequest` started. */
export async function closeFilingApis(): Promise<void> {
  const apis = await Promise.all(filingApis.values());
  filingApis.clear();
  for (const api of apis) await api.close();
}

/**
 * Files an access-change request through the API (POST /rest/secure/user_access_mod_request, 001 §4), as a
 * fresh user of its own with a directory entry, signed in: the product's own filing (row, CREATED audit, then
 * the workflow start on `taskQueue`), never a copy of it. The workflow's deadlines come from the API's
 * MAIL_DEADLINE, WRITE_DEADLINE and WRITE_ATTEMPT_TIMEOUT. A REMOVAL request first grants the role it removes.
 */
export async function fileAccessRequest(
  _env: TemporalTestEnv,
  prisma: PrismaClient,
  taskQueue: string,
  opts: {
    requestType?: RequestType;
    notificationDeadline?: string;
    writeDeadline?: string;
    writeAttemptTimeout?: string;
    /** The request's one block; the demo block (Data Manager, one study) when absent. */
    block?: AccessControl;
    /** More of the API's environment, e.g. APPROVAL_WORKING_DAY. */
    apiEnv?: Record<string, string>;
  } = {},
): Promise<FiledRequest> {
  const requestType = opts.requestType ?? 'NEW';
  const api = await filingApi(taskQueue, {
    ...opts.apiEnv,
    ...(opts.notificationDeadline ? { MAIL_DEADLINE: opts.notificationDeadline } : {}),
    ...(opts.writeDeadline ? { WRITE_DEADLINE: opts.writeDeadline } : {}),
    ...(opts.writeAttemptTimeout ? { WRITE_ATTEMPT_TIMEOUT: opts.writeAttemptTimeout } : {}),
  });
  const subject = await createTestUser(api, 'lifecycle');
  const session = await signIn(api.app, subject.username, subject.password);
  const block = opts.block ?? (await demoRequestParts(prisma)).block;
  if (requestType !== 'NEW') await grantBlock(prisma, subject.user.id, block);
  const res = await caller(api.app)(session, 'POST', '/rest/secure/user_access_mod_request', {
    portalUserId: subject.user.id,
    email: subject.email,
    requestType,
    requestStatus: 'NEW',
    accessControls: [block],
  });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = res.json() as { id: number };
  // The API answers once the workflow started; its mark on the row follows the answer.
  await until(
    async () => (await prisma.accessModRequest.findUniqueOrThrow({ where: { id } })).workflowStartedAt !== null,
    'the API marked the workflow started',
  );
  const row = await prisma.accessModRequest.findUniqueOrThrow({ where: { id } });
  return {
    id,
    workflowId: row.workflowId,
    subjectId: subject.user.id,
    email: subject.email,
    password: subject.password,
    roleName: block.roleName,
  };
}

/**
 * The review payload of 'Apply Above Changes' (001 §4): the subject's active access records (sent back with
 * id and versionno) with the request's blocks applied: NEW/CHANGE replace or add the role, REMOVAL removes it.
 */
export async function appliedPayload(prisma: PrismaClient, filed: FiledRequest): Promise<AccessReviewPayload> {
  const request = await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } });
  const blocks = AccessControlSchema.array().parse(request.accessControls);
  const roles = new Set(blocks.map((b) => b.roleName));
  const active = await prisma.userAccess.findMany({ where: { portalUserId: filed.subjectId, inactive: false } });
  const kept = active
    .filter((a) => !roles.has(a.roleName))
    .map((a) => ({
      id: a.id,
      versionno: a.versionno,
      roleName: a.roleName,
      siteCodes: a.siteCodes,
      laoIds: a.laoIds,
      studyNames: a.studyNames,
      systemAccessIds: a.systemAccessIds,
    }));
  return { userAccesses: request.requestType === 'REMOVAL' ? kept : [...kept, ...blocks] };
}

export const REVIEWER = { userId: 2, username: 'reviewer', permissions: ['WRITE_USERS', 'READ_USERS', 'USER'] };

export const review = (over: Partial<ReviewInput<RequestStatus>>): ReviewInput<RequestStatus> => ({
  expectedVersion: 0,
  requestStatus: 'IN_PROGRESS',
  reviewerComments: '',
  sysaidTicket: '',
  actor: REVIEWER,
  ...over,
});

/** The ApplicationFailure type an update failed with, or undefined when it succeeded. */
export async function failureType(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as { type?: string } | undefined)?.type;
    throw err;
  }
  return undefined;
}

/** Audit actions of a workflow, oldest first. */
export async function auditActions(prisma: PrismaClient, workflowId: string): Promise<string[]> {
  const rows = await prisma.auditEvent.findMany({ where: { workflowId }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.action);
}

/** Polls `check` every 100 ms until it returns true (or fails after `timeoutMs`). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * With RECORD_HISTORIES=1, writes the closed workflow's history to tests/histories/<kind>/<name>.json, for
 * the replay test. Never otherwise: a reshaped workflow retires its histories deliberately (docs/decisions.md).
 */
export async function maybeRecordHistory(
  env: Pick<TemporalTestEnv, 'client'>,
  workflowId: string,
  kind: string,
  name: string,
) {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const file = path.join(HISTORIES_DIR, kind, `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, historyToJSON(history));
  expect(fs.existsSync(file)).toBe(true);
}
