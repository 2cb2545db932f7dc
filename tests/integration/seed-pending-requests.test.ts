/**
 * The demo seed's pending requests (issue 23): registrations, access changes (one filed by the LAO staff
 * persona) and profile changes written as filing writes them, with no confirmed workflow start; the worker's
 * reconciler starts each one's workflow under the kind's id, and the review queue lists them. Seeded once.
 * The test stacks turn the demo's pending requests off (SEED_PENDING_REQUESTS=false), so this runs the seed's
 * step itself and removes its rows afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import type { UserRequestRow } from '@portal/contract';
import { PENDING_SEED_NAME, type PendingSeeded, SEEDED_WORKFLOW_IDS, seedPendingRequests } from '@portal/db/seed';
import { accessChangeWorkflowId, profileChangeWorkflowId, registrationWorkflowId } from '@portal/workflows';
import { reconcileUnstartedRequests } from '@portal/worker';
import { type TestApi, caller, signIn, startApi, startWorker } from './harness';
import { uniqueQueue } from './lifecycle/support';

const taskQueue = uniqueQueue('seed-pending');
let api: TestApi;
let connection: Connection;
let client: Client;
let stopWorker: () => Promise<void>;
let seeded: PendingSeeded | null = null;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  connection = await Connection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: api.cfg.TEMPORAL_NAMESPACE });
  stopWorker = await startWorker(api, taskQueue);
});

afterAll(async () => {
  await stopWorker?.();
  // Later files count the requests they file: the seeded rows go (their workflows stay on this file's queue).
  if (seeded) {
    await api.prisma.registration.deleteMany({ where: { id: { in: seeded.registrations } } });
    await api.prisma.accessModRequest.deleteMany({ where: { id: { in: seeded.accessChanges } } });
    await api.prisma.profileChangeRequest.deleteMany({ where: { id: { in: seeded.profileChanges } } });
  }
  await api?.prisma.seedRun.deleteMany({ where: { name: PENDING_SEED_NAME } });
  await connection?.close();
  await api?.close();
});

describe("the demo seed's pending requests", () => {
  it('are written unstarted, started by the reconciler and listed in the review queue', async () => {
    const log: string[] = [];
    seeded = await seedPendingRequests(api.prisma, (l) => log.push(l));
    expect(seeded).not.toBeNull();
    const s = seeded!;
    expect(s.registrations).toHaveLength(3);
    expect(s.accessChanges.length).toBeGreaterThanOrEqual(2);
    expect(s.profileChanges).toHaveLength(2);
    expect(await seedPendingRequests(api.prisma, () => {})).toBeNull();

    // The rows carry the workflows package's ids and no confirmed start.
    const registrations = await api.prisma.registration.findMany({ where: { id: { in: s.registrations } } });
    const accessChanges = await api.prisma.accessModRequest.findMany({ where: { id: { in: s.accessChanges } } });
    const profileChanges = await api.prisma.profileChangeRequest.findMany({ where: { id: { in: s.profileChanges } } });
    const expected = [
      ...registrations.map((r) => [r.workflowId, registrationWorkflowId(r.id), SEEDED_WORKFLOW_IDS.registration(r.id)]),
      ...accessChanges.map((r) => [r.workflowId, accessChangeWorkflowId(r.id), SEEDED_WORKFLOW_IDS.accessChange(r.id)]),
      ...profileChanges.map((r) => [
        r.workflowId,
        profileChangeWorkflowId(r.id),
        SEEDED_WORKFLOW_IDS.profileChange(r.id),
      ]),
    ];
    for (const [stored, owned, seededId] of expected) expect([stored, seededId]).toEqual([owned, owned]);
    for (const r of [...registrations, ...accessChanges, ...profileChanges]) {
      expect(r.workflowStartedAt).toBeNull();
      expect(r.sysdat.getTime()).toBeLessThan(Date.now() - 23 * 3_600_000);
    }
    expect(accessChanges.some((r) => r.isProxyRequest)).toBe(true);

    // The reconciler's first pass (grace: a minute, as configured by default) starts every one of them.
    const repaired = await reconcileUnstartedRequests({ prisma: api.prisma, client, taskQueue, graceMs: 60_000 });
    expect(repaired).toEqual(expect.arrayContaining(expected.map(([id]) => id)));
    for (const [workflowId] of expected) {
      const description = await client.workflow.getHandle(workflowId!).describe();
      expect(description.status.name, workflowId).toBe('RUNNING');
    }

    // Other files share this database and file old requests of their own (1,250 profile changes dated in
    // January among them), so each seeded row is looked up by its email rather than found on page one.
    const reviewer = await signIn(api.app, 'reviewer');
    const listed = async (type: string, id: number, email: string) => {
      const queue = await caller(api.app)(
        reviewer,
        'GET',
        `/rest/secure/user_management/user_requests/pending?page=1&size=200&sort=dateSubmitted,asc&filter=${encodeURIComponent(email)}`,
      );
      expect(queue.statusCode, queue.body).toBe(200);
      const rows = queue.json().content as UserRequestRow[];
      return rows.some((r) => r.userRequestType === type && r.id === id);
    };
    for (const r of registrations) expect(await listed('REGISTRATION', r.id, r.email), r.email).toBe(true);
    // An access change or profile change shows its person's current email (000 §7), not the one it asks for.
    const emailOf = async (id: number) => (await api.prisma.portalUser.findUniqueOrThrow({ where: { id } })).email;
    for (const r of accessChanges) {
      expect(await listed('ACCESS_CHANGE', r.id, await emailOf(r.subjectUserId)), String(r.id)).toBe(true);
    }
    for (const r of profileChanges) {
      expect(await listed('PROFILE_CHANGE', r.id, await emailOf(r.portalUserId)), String(r.id)).toBe(true);
    }
  });
});
