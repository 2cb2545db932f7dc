/**
 * Shared setup of the workflow tests that go through the API (registration and profile change, REQUEST-LIFECYCLE
 * "Tests every kind gets"): APIs on the test stack, each on a task queue of its own, closed after the file; a
 * Temporal client for the workflows' state, result and history; and a worker with the directory around a test.
 */
import { afterAll, beforeAll } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { type TestApi, startApi } from './harness';
import { type TemporalTestEnv, uniqueQueue } from './lifecycle/support';
import { startRegistrationWorker } from './registrations/support';

/** A mail server address where nothing listens: the worker's mail fails (MAIL_FAILED). */
export const MAIL_DOWN = 'smtp://127.0.0.1:9';

export interface WorkflowApis {
  /** Every API started so far; the first is started before the file's tests. */
  apis: TestApi[];
  /** Starts another API (on a new task queue `<queuePrefix>-…`) with `env` on top. */
  newApi(env?: Record<string, string>): Promise<TestApi>;
  /** A client of the stack's Temporal, connected before the file's tests (filled in place; no native connection). */
  temporal: TemporalTestEnv;
  /** The result of the workflow `workflowId`: its final state, once it completes. */
  finalState(workflowId: string): Promise<unknown>;
}

/**
 * Starts the first API and connects the Temporal client before the file's tests (within 60 s); closes the
 * client and every API after them. Register it before the file's own hooks: they see `apis[0]` and `temporal`.
 */
export function useWorkflowApis(queuePrefix: string): WorkflowApis {
  const apis: TestApi[] = [];
  const temporal = {} as TemporalTestEnv;
  async function newApi(env: Record<string, string> = {}): Promise<TestApi> {
    const api = await startApi({ TEMPORAL_TASK_QUEUE: uniqueQueue(queuePrefix), ...env });
    apis.push(api);
    return api;
  }
  beforeAll(async () => {
    const connection = await Connection.connect({ address: (await newApi()).cfg.TEMPORAL_ADDRESS });
    Object.assign(temporal, {
      client: new Client({ connection }),
      native: undefined as never,
      close: () => connection.close(),
    });
  }, 60_000);
  afterAll(async () => {
    await temporal.close?.();
    for (const api of apis) await api.close();
  });
  const finalState = (workflowId: string) => temporal.client.workflow.getHandle(workflowId).result();
  return { apis, newApi, temporal, finalState };
}

/**
 * Runs `body` while a worker with the directory (startRegistrationWorker, `opts` as there) polls the API's
 * task queue; stops the worker after it, also when it throws.
 */
export async function withWorker(
  api: TestApi,
  opts: Parameters<typeof startRegistrationWorker>[2],
  body: () => Promise<void>,
): Promise<void> {
  const stop = await startRegistrationWorker(api, api.cfg.TEMPORAL_TASK_QUEUE, opts);
  try {
    await body();
  } finally {
    await stop();
  }
}
