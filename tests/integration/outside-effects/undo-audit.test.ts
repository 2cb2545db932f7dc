/**
 * An undo of an approval's directory write is audited before the address lock is let go (docs/decisions.md
 * "One address, one approval at a time"; REQUEST-LIFECYCLE rule 3): whoever takes the lock next (the save sent
 * again after a 503, whose own undo then finds nothing to restore) finds the restore already on the audit
 * trail. The undo's audit row is made to wait (an uncommitted row under its idempotency key, rolled back
 * later), the real activity on real PostgreSQL and slapd restores the entry, and the lock is tried meanwhile:
 * it may be taken only once the restore is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockEmail } from '@portal/db';
import { readPersonFields, writePersonFields } from '@portal/directory';
import { createActivities } from '@portal/worker';
import { type TestApi, startApi } from '../harness';
import { testMailSettings } from '../fixtures';
import { holdTransaction } from '../../support/held-transaction';
import { auditActions, until } from '../lifecycle/support';
import { fileChange, newRequester } from '../profile-change/support';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

/** Whether the address lock of `email` can be taken within a second (false: someone holds it). */
async function lockIsFree(email: string): Promise<boolean> {
  try {
    await api.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '1s'`);
      await lockEmail(tx, email);
    });
    return true;
  } catch {
    return false;
  }
}

describe("a profile change's directory undo", () => {
  it('commits its DIRECTORY_RESTORED row before it lets go of the address lock', async () => {
    const requester = await newRequester(api, 'undoaud');
    const request = await fileChange(api, requester);
    const person = await api.prisma.portalUser.findUniqueOrThrow({ where: { id: requester.user.user.id } });
    // An approval's write that landed late (slapd frozen, then resumed): the entry holds the asked values.
    await writePersonFields(api.directory, person.uuid!, {
      username: person.username,
      gecos: person.gecos,
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email,
    });
    const reviewer = await api.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } });
    const input = {
      kind: 'PROFILE_CHANGE' as const,
      requestId: request.id,
      workflowId: request.workflowId,
      actor: { userId: reviewer.id, username: reviewer.username, permissions: ['WRITE_USERS'] },
      version: 1,
    };
    const key = `${request.workflowId}:1:undo`;

    // An uncommitted row under the undo's key: the undo's own audit insert waits until it is rolled back.
    const release = await holdTransaction(api.prisma, (tx) =>
      tx.auditEvent.create({
        data: { actorUsername: 'test', entityType: 'Test', entityId: key, action: 'TEST_HOLD', idempotencyKey: key },
      }),
    );

    const { undoOutsideEffects } = createActivities(api.prisma, testMailSettings(), api.directory);
    const undo = undoOutsideEffects(input);
    try {
      await until(
        async () => (await readPersonFields(api.directory, person.uuid!))?.email === person.email,
        'the undo restoring the entry',
      );
      const free = await lockIsFree(request.email);
      const audited = await api.prisma.auditEvent.count({ where: { idempotencyKey: key } });
      expect({ free, audited }, 'the lock was let go before the restore was audited').not.toEqual({
        free: true,
        audited: 0,
      });
    } finally {
      await release();
      await undo;
    }
    expect(await auditActions(api.prisma, request.workflowId)).toContain('DIRECTORY_RESTORED');
    expect(await api.prisma.auditEvent.count({ where: { idempotencyKey: key } })).toBe(1);
  });
});
