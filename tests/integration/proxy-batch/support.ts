/**
 * Shared setup of the proxy batch tests: subjects at a site (portal users without directory entries: they
 * never sign in), batches filed through the API's route, holding a user's
 * filing lock so a batch waits at that user (a kill or a deactivation lands at a known point), waiting for a
 * batch to end.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { AccessControl, ProxyBatchDetail } from '@portal/contract';
import type { PortalUser, PrismaClient } from '@portal/db';
import { demoRequestParts } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi } from '../harness';
import type { TemporalTestEnv } from '../lifecycle/support';

export { filingWaits, holdFilingLock } from '../../support/filing-locks';

/** Creates `n` active users whose current access record names AO `siteCode` (role 'Clinical Research Associate'). */
export async function subjectsAt(prisma: PrismaClient, siteCode: string, n: number, tag = 'pb'): Promise<PortalUser[]> {
  const users: PortalUser[] = [];
  for (let i = 0; i < n; i++) {
    const suffix = crypto.randomBytes(4).toString('hex');
    const user = await prisma.portalUser.create({
      data: {
        username: `${tag}${suffix}${i}`,
        firstName: 'Batch',
        lastName: `${tag}${i}`,
        email: `${tag}${suffix}${i}@it.portal.test`,
        userAccesses: {
          create: {
            roleName: 'Clinical Research Associate',
            siteCodes: [siteCode],
            createdBy: 'test',
            lastModifiedBy: 'test',
          },
        },
      },
    });
    users.push(user);
  }
  return users;
}

export const BATCH_URL = '/rest/secure/user_access_mod_request/proxy_batch';

/** Files a batch of `users` with `block` through the API's route as `proxy` (001 §7). @returns its id. */
export async function fileBatch(
  api: TestApi,
  proxy: Session,
  users: readonly { id: number }[],
  block: AccessControl,
  requesterComments?: string,
): Promise<number> {
  const res = await caller(api.app)(proxy, 'POST', BATCH_URL, {
    portalUserIds: users.map((u) => u.id),
    accessControls: [block],
    ...(requesterComments === undefined ? {} : { requesterComments }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProxyBatchDetail>().id;
}

/** Polls the batch row until it is no longer RUNNING. */
export async function batchEnded(prisma: PrismaClient, batchId: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await prisma.proxyBatch.findUniqueOrThrow({ where: { id: batchId } });
    if (batch.status !== 'RUNNING') return batch;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} still running: ${JSON.stringify(batch)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a batch test files and watches with: the API on its task queue, Temporal, and laostaff (the proxy). */
export interface BatchStack {
  api: TestApi;
  prisma: PrismaClient;
  env: TemporalTestEnv;
  block: AccessControl;
  laostaff: Session;
  laostaffUser: PortalUser;
  close(): Promise<void>;
}

/** Starts an API whose filings start workflows on `taskQueue` (no worker polls it unless a test starts one). */
export async function startBatchStack(taskQueue: string): Promise<BatchStack> {
  const api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  const connection = await Connection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  const native = await NativeConnection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  const env: TemporalTestEnv = {
    client: new Client({ connection, namespace: api.cfg.TEMPORAL_NAMESPACE }),
    native,
    close: async () => {
      await native.close();
      await connection.close();
    },
  };
  return {
    api,
    prisma: api.prisma,
    env,
    block: (await demoRequestParts(api.prisma)).block,
    laostaff: await signIn(api.app, 'laostaff'),
    laostaffUser: await api.prisma.portalUser.findUniqueOrThrow({ where: { username: 'laostaff' } }),
    close: async () => {
      await env.close();
      await api.close();
    },
  };
}
