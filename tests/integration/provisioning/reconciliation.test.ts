/**
 * Reconciliation (issue 41, report-only) against a real scim2-server, by a real in-process worker running
 * `provisionReconcileWorkflow` in small chunks (two users per chunk, one per SCIM page): an account made behind
 * the portal's back (an orphan), an account of a person without access (an orphan), a person with access but
 * no account (missing), and a drifted email are each reported once, the accounts as they should be are not,
 * and the counts add up. The connection is off, so no change of this file is provisioned behind its back.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { wantedAccount } from '@portal/db';
import { ScimClient, userResource } from '@portal/scim';
import { provisionReconcileStart, provisionReconcileWorkflowId } from '@portal/workflows';
import { type ScimTarget, startScimTarget } from '../../support/scim-target';
import { createTestUser } from '../auth-helpers';
import { grantBlock, roleBlockOf } from '../fixtures';
import { type TestApi, startApi, startWorker } from '../harness';
import { maybeRecordHistory, uniqueQueue } from '../lifecycle/support';
import { PROVISIONING_KEY, provisionedSystem } from './support';

const taskQueue = uniqueQueue('provisioning-reconcile');
let api: TestApi;
let target: ScimTarget;
let scim: ScimClient;
let systemId: number;
let stopWorker: () => Promise<void>;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  target = await startScimTarget();
  scim = new ScimClient({ baseUrl: target.url, token: target.token });
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, PROVISIONING_KEY });
  systemId = await provisionedSystem(api.prisma, { baseUrl: target.url, token: target.token, tag: 'recon' });
  await api.prisma.provisioningConnection.update({ where: { systemAccessId: systemId }, data: { enabled: false } });
  stopWorker = await startWorker(api, taskQueue);
  connection = await Connection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  temporal = new Client({ connection, namespace: api.cfg.TEMPORAL_NAMESPACE });
});
afterAll(async () => {
  await stopWorker?.();
  await connection?.close();
  await api?.close();
  await target?.stop();
});

/** A person holding the system (or not, with `holds` false). */
async function person(tag: string, holds = true) {
  const u = await createTestUser(api, tag);
  const block = await roleBlockOf(api.prisma, 'Research Pharmacist', { siteCodes: ['MA036'] });
  if (holds) await grantBlock(api.prisma, u.user.id, { ...block, systemAccessIds: [systemId] });
  return u;
}

/** Creates at the target the account the portal would, with `over` on it. */
async function accountAtTarget(portalUserId: number, over: Record<string, unknown> = {}) {
  const wanted = await wantedAccount(api.prisma, systemId, portalUserId);
  return scim.create({ ...userResource({ ...wanted!, active: true }, 'EXTENSION'), ...over });
}

describe('reconciliation', () => {
  it('reports orphans, missing accounts and drift once each, in chunks, and counts both sides', async () => {
    const inSync = await person('rcok');
    await accountAtTarget(inSync.user.id);
    const missing = await person('rcmissing');
    const drifted = await person('rcdrift');
    await accountAtTarget(drifted.user.id, { emails: [{ value: 'old@elsewhere.test', primary: true }] });
    const noAccess = await person('rcnoaccess', false);
    await accountAtTarget(noAccess.user.id);
    const stranger = crypto.randomUUID();
    await scim.create({
      ...userResource(
        {
          ...(await wantedAccount(api.prisma, systemId, inSync.user.id))!,
          subjectId: stranger,
          userName: `x${stranger.slice(0, 8)}`,
        },
        'EXTENSION',
      ),
    });

    const row = await api.prisma.provisioningReconciliation.create({
      data: { systemAccessId: systemId, requestedBy: 'test' },
    });
    const start = provisionReconcileStart({
      systemAccessId: systemId,
      reconciliationId: row.id,
      chunk: 2,
      pageSize: 1,
    });
    const handle = await temporal.workflow.start(start.workflowType, {
      workflowId: provisionReconcileWorkflowId(systemId, row.id),
      taskQueue,
      args: start.args,
      typedSearchAttributes: start.typedSearchAttributes,
    });
    await handle.result();
    await maybeRecordHistory({ client: temporal }, handle.workflowId, 'provisioning', 'reconciled');

    const run = await api.prisma.provisioningReconciliation.findUniqueOrThrow({
      where: { id: row.id },
      include: { differences: { orderBy: { id: 'asc' } } },
    });
    expect(run).toMatchObject({
      status: 'DONE',
      targetAccounts: 4,
      portalAccounts: 3,
      orphans: 2,
      missing: 1,
      drifted: 1,
    });
    const byKind = (kind: string) => run.differences.filter((d) => d.kind === kind);
    expect(byKind('MISSING').map((d) => d.portalUserId)).toEqual([missing.user.id]);
    expect(byKind('DRIFTED')).toEqual([
      expect.objectContaining({ portalUserId: drifted.user.id, detail: expect.stringContaining('emails: portal') }),
    ]);
    expect(
      byKind('ORPHAN')
        .map((d) => d.externalId)
        .sort(),
    ).toEqual(
      [stranger, (await api.prisma.portalUser.findUniqueOrThrow({ where: { id: noAccess.user.id } })).subjectId].sort(),
    );
    expect(run.differences).toHaveLength(4);
    // The externalIds seen are not kept once the run ends.
    expect(await api.prisma.provisioningSeen.count({ where: { reconciliationId: row.id } })).toBe(0);
    // The target was only read.
    expect(await target.users()).toHaveLength(4);
  });

  it('a scheduled run (no report row yet) makes its own; a target that cannot be read ends FAILED with the reason', async () => {
    // Nothing listens on port 9 (discard): every read of the target is refused at once.
    await api.prisma.provisioningConnection.update({
      where: { systemAccessId: systemId },
      data: { baseUrl: 'http://127.0.0.1:9/scim' },
    });
    try {
      const start = provisionReconcileStart({ systemAccessId: systemId, attempts: 2, maxRetryInterval: '1 second' });
      const handle = await temporal.workflow.start(start.workflowType, {
        workflowId: `provision-reconcile-${systemId}-scheduled-${Date.now()}`,
        taskQueue,
        args: start.args,
      });
      const id = await handle.result();
      await maybeRecordHistory({ client: temporal }, handle.workflowId, 'provisioning', 'reconcile-failed');
      const run = await api.prisma.provisioningReconciliation.findUniqueOrThrow({ where: { id } });
      expect(run.status).toBe('FAILED');
      expect(run.error).toMatch(/no answer/);
    } finally {
      await api.prisma.provisioningConnection.update({
        where: { systemAccessId: systemId },
        data: { baseUrl: target.url },
      });
    }
  });
});
