/**
 * What the provisioning tests share (issue 41): a study system of their own with a provisioning connection to a
 * real SCIM target (tests/support/scim-target.ts), the key its token is sealed under, reading a person's
 * account at the target by externalId, and the rig of the files that run the listener (`useProvisioningRig`).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { PROVISIONING_SEAL_PURPOSE, type PrismaClient, sealText } from '@portal/db';
import { listenForProvisioningNotices } from '@portal/worker';
import { type ScimTarget, startScimTarget } from '../../support/scim-target';
import type { TestUser } from '../auth-helpers';
import { roleBlockOf } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { uniqueQueue, until } from '../lifecycle/support';

/** The PROVISIONING_KEY of the tests' API and worker. */
export const PROVISIONING_KEY = 'provisioning-test-key-0123456789abcdef';

/**
 * Makes a system named `name` (unique per call) with a connection to `baseUrl` holding `token`, on.
 * @returns the system's id.
 */
export async function provisionedSystem(
  prisma: PrismaClient,
  opts: { baseUrl: string; token: string; accessAs?: 'EXTENSION' | 'NONE'; deleteOnRemoval?: boolean; tag: string },
): Promise<number> {
  const system = await prisma.systemAccess.create({
    data: { systemName: `Provisioned ${opts.tag} ${crypto.randomBytes(3).toString('hex')}`, sort: 900 },
  });
  await prisma.provisioningConnection.create({
    data: {
      systemAccessId: system.id,
      baseUrl: opts.baseUrl,
      tokenSealed: sealText(PROVISIONING_KEY, PROVISIONING_SEAL_PURPOSE, opts.token),
      enabled: true,
      accessAs: opts.accessAs ?? 'EXTENSION',
      deleteOnRemoval: opts.deleteOnRemoval ?? false,
      retryDays: 1,
    },
  });
  return system.id;
}

/** The target's accounts whose externalId is `subjectId`. */
export async function accountsOf(target: ScimTarget, subjectId: string) {
  return (await target.users()).filter((u) => u.externalId === subjectId);
}

/** The one account of `subjectId` at the target, or undefined. @throws when it holds several. */
export async function accountOf(target: ScimTarget, subjectId: string) {
  const found = await accountsOf(target, subjectId);
  if (found.length > 1) throw new Error(`${found.length} accounts have externalId ${subjectId}`);
  return found[0];
}

/** The primary email of a SCIM user as the target holds it. */
export const emailOf = (user: Record<string, unknown> | undefined): string | undefined =>
  (user?.emails as Array<{ value: string }> | undefined)?.[0]?.value;

/** What `useProvisioningRig` sets up for a file: an API and worker on a queue of its own, a target, a system. */
export interface ProvisioningRig {
  api: TestApi;
  call: ReturnType<typeof caller>;
  admin: Session;
  target: ScimTarget;
  systemId: number;
  taskQueue: string;
  temporal: Client;
  /** The listener's settings (the tests' short attempt and retry wait), for a second listener of the file's own. */
  listenerOptions: Parameters<typeof listenForProvisioningNotices>[0];
  /** Gives `u` a 'Research Pharmacist' block with `systems` beside the role's own, through the Access tab's route. */
  grant(u: TestUser, systems: number[], extra?: Record<string, unknown>): Promise<void>;
  subjectOf(u: TestUser): Promise<string>;
  /** The portal's state of `u`'s account at `system` (default the rig's). */
  stateOf(u: TestUser, system?: number): ReturnType<TestApi['prisma']['provisioningAccount']['findUnique']>;
  /** Waits until the target's one account of `u` satisfies `check`. @returns it. */
  untilAccount(
    u: TestUser,
    what: string,
    check: (a: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
}

/**
 * Before the file's tests: a real target, an API with PROVISIONING_KEY on `name`'s own task queue, a provisioned
 * system, an in-process worker (with the directory) and the worker's provisioning
 * listener with a 3-second attempt and a one-second longest retry wait; all stopped after them.
 */
export function useProvisioningRig(name: string): ProvisioningRig {
  const taskQueue = uniqueQueue(name);
  const stops: Array<() => Promise<void>> = [];
  const rig = { taskQueue } as ProvisioningRig;
  beforeAll(async () => {
    rig.target = await startScimTarget();
    stops.push(() => rig.target.stop());
    rig.api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, PROVISIONING_KEY });
    stops.push(() => rig.api.close());
    rig.call = caller(rig.api.app);
    rig.admin = await signIn(rig.api.app, 'admin');
    rig.systemId = await provisionedSystem(rig.api.prisma, {
      baseUrl: rig.target.url,
      token: rig.target.token,
      tag: name,
    });
    // With the directory: a profile change's approval writes it before its row.
    stops.push(await startWorker(rig.api, taskQueue, { directory: rig.api.directory }));
    const connection = await Connection.connect({ address: rig.api.cfg.TEMPORAL_ADDRESS });
    stops.push(() => connection.close());
    rig.temporal = new Client({ connection, namespace: rig.api.cfg.TEMPORAL_NAMESPACE });
    rig.listenerOptions = {
      connectionString: rig.api.cfg.DATABASE_URL,
      prisma: rig.api.prisma,
      client: rig.temporal,
      taskQueue,
      attemptTimeout: '3 seconds',
      maxRetryInterval: '1 second',
    };
    stops.push(listenForProvisioningNotices(rig.listenerOptions));
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  rig.grant = async (u, systems, extra = {}) => {
    const block = await roleBlockOf(rig.api.prisma, 'Research Pharmacist', { siteCodes: ['MA036'], ...extra });
    const res = await rig.call(rig.admin, 'PUT', `/rest/secure/user_access/user/${u.user.id}`, {
      userAccesses: [{ ...block, systemAccessIds: [...block.systemAccessIds, ...systems] }],
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  rig.subjectOf = async (u) =>
    (await rig.api.prisma.portalUser.findUniqueOrThrow({ where: { id: u.user.id } })).subjectId;
  rig.stateOf = (u, system = rig.systemId) =>
    rig.api.prisma.provisioningAccount.findUnique({
      where: { systemAccessId_portalUserId: { systemAccessId: system, portalUserId: u.user.id } },
    });
  rig.untilAccount = async (u, what, check) => {
    const subject = await rig.subjectOf(u);
    let last: Record<string, unknown> | undefined;
    await until(
      async () => {
        last = await accountOf(rig.target, subject);
        return !!last && check(last);
      },
      what,
      30_000,
    );
    return last!;
  };
  return rig;
}
