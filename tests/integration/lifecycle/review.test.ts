/**
 * The request lifecycle's main paths on a real Temporal dev server with the worker in-process and the
 * activities writing the real PostgreSQL (REQUEST-LIFECYCLE.md): approved, rejected, a comment-only save and
 * the validator's refusals. Each path's history is recorded for replay with RECORD_HISTORIES=1.
 */
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { RequestStatusKey, RequestTypeKey, SubjectUserIdKey, reviewUpdate, stateQuery } from '@portal/workflows';
import { waitForMail } from '../fixtures';
import {
  type TemporalTestEnv,
  appliedPayload,
  auditActions,
  failureType,
  fileAccessRequest,
  maybeRecordHistory,
  newWorker,
  review,
  uniqueQueue,
  useLifecycleStack,
} from './support';

let env: TemporalTestEnv;
let prisma: PrismaClient;
const taskQueue = uniqueQueue('lifecycle-review');

useLifecycleStack((e, p) => {
  env = e;
  prisma = p;
});

describe('request lifecycle: main paths', () => {
  it('moves NEW → IN_PROGRESS → APPROVED: each save one commit, the access the reviewer applied granted with it', async () => {
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      const handle = env.client.workflow.getHandle(filed.workflowId);
      expect((await handle.query(stateQuery)).status).toBe('NEW');
      const desc0 = await handle.describe();
      expect(await desc0.staticSummary()).toContain(`Access change request #${filed.id}`);

      const s1 = await handle.executeUpdate(reviewUpdate, { args: [review({ sysaidTicket: 'T-100' })] });
      expect(s1).toMatchObject({ status: 'IN_PROGRESS', version: 1, sysaidTicket: 'T-100', busy: false });
      // read-your-writes: the update returned after the commit
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'IN_PROGRESS',
        versionno: 1,
        sysaidTicket: 'T-100',
        lastModifiedBy: 'reviewer',
      });
      // nothing granted before Approved
      expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(0);

      const s2 = await handle.executeUpdate(reviewUpdate, {
        args: [
          review({
            expectedVersion: 1,
            requestStatus: 'APPROVED',
            reviewerComments: 'ok',
            sysaidTicket: 'T-100',
            payload: await appliedPayload(prisma, filed),
          }),
        ],
      });
      expect(s2).toMatchObject({ status: 'APPROVED', version: 2 });
      expect((await handle.result()).status).toBe('APPROVED');
      const mail = await waitForMail(filed.email, `#${filed.id} was approved`);
      expect(mail.text).toContain('Reviewer comments: ok');

      const access = await prisma.userAccess.findMany({ where: { sourceRequestId: filed.id } });
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({ portalUserId: filed.subjectId, roleName: filed.roleName, inactive: false });
      expect(await auditActions(prisma, filed.workflowId)).toEqual([
        'CREATED',
        'STATUS_IN_PROGRESS',
        'ACCESS_UPDATED',
        'STATUS_APPROVED',
        'MAIL_SENT',
      ]);
      const outbox = await prisma.outboundMail.findUniqueOrThrow({ where: { key: `${filed.workflowId}:mail` } });
      expect(outbox).toMatchObject({ status: 'SENT', messageId: `<${filed.workflowId}.resolution@portal.test>` });

      const desc = await handle.describe();
      expect(desc.typedSearchAttributes.get(RequestStatusKey)).toBe('APPROVED');
      expect(desc.typedSearchAttributes.get(RequestTypeKey)).toBe('ACCESS_CHANGE');
      expect(desc.typedSearchAttributes.get(SubjectUserIdKey)).toBe(filed.subjectId);
      const history = await handle.fetchHistory();
      const scheduled = history.events!.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e] : []));
      expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name)).toEqual([
        'commitSave',
        'commitSave',
        'sendResolutionMail',
      ]);
      expect(scheduled.every((e) => e.userMetadata?.summary)).toBe(true);
      await maybeRecordHistory(env, filed.workflowId, 'access-change', 'approved');
    });
  });

  it('rejects: nothing granted, the rejection mailed', async () => {
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await handle.executeUpdate(reviewUpdate, {
        args: [review({ requestStatus: 'REJECTED', reviewerComments: 'no study link' })],
      });
      expect((await handle.result()).status).toBe('REJECTED');
      await waitForMail(filed.email, `#${filed.id} was rejected`);
      expect(await prisma.userAccess.count({ where: { sourceRequestId: filed.id } })).toBe(0);
      expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_REJECTED', 'MAIL_SENT']);
      await maybeRecordHistory(env, filed.workflowId, 'access-change', 'rejected');
    });
  });

  it('saves a comment-only change as a new version and REVIEW_SAVED', async () => {
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      const handle = env.client.workflow.getHandle(filed.workflowId);
      const s = await handle.executeUpdate(reviewUpdate, {
        args: [review({ requestStatus: 'NEW', reviewerComments: 'called the site' })],
      });
      expect(s).toMatchObject({ status: 'NEW', version: 1, reviewerComments: 'called the site' });
      await handle.executeUpdate(reviewUpdate, {
        args: [review({ expectedVersion: 1, requestStatus: 'REJECTED', reviewerComments: 'called the site' })],
      });
      await handle.result();
      expect(await auditActions(prisma, filed.workflowId)).toEqual([
        'CREATED',
        'REVIEW_SAVED',
        'STATUS_REJECTED',
        'MAIL_SENT',
      ]);
      await maybeRecordHistory(env, filed.workflowId, 'access-change', 'comment-only');
    });
  });

  it('refuses an illegal transition, a stale version, a missing permission and no change, writing nothing', async () => {
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      const handle = env.client.workflow.getHandle(filed.workflowId);
      await handle.executeUpdate(reviewUpdate, { args: [review({})] });
      const refusals = await Promise.all([
        failureType(
          handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'NEW' })] }),
        ),
        failureType(
          handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 0, requestStatus: 'REJECTED' })] }),
        ),
        failureType(
          handle.executeUpdate(reviewUpdate, {
            args: [
              review({
                expectedVersion: 1,
                requestStatus: 'REJECTED',
                actor: { userId: 3, username: 'readonly', permissions: ['READ_USERS', 'USER'] },
              }),
            ],
          }),
        ),
        failureType(handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1 })] })),
      ]);
      expect(refusals).toEqual(['ILLEGAL_TRANSITION', 'STALE_VERSION', 'PERMISSION_DENIED', 'NO_CHANGES']);
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'IN_PROGRESS',
        versionno: 1,
      });
      expect(await auditActions(prisma, filed.workflowId)).toEqual(['CREATED', 'STATUS_IN_PROGRESS']);
      // Refused updates leave no trace in the history: only the accepted one is recorded.
      const history = await handle.fetchHistory();
      expect(history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);

      await handle.executeUpdate(reviewUpdate, { args: [review({ expectedVersion: 1, requestStatus: 'REJECTED' })] });
      await handle.result();
      await maybeRecordHistory(env, filed.workflowId, 'access-change', 'refused-update');
    });
  });
  it('grants nothing by approval alone; applied access takes effect on any save; the commit re-checks and refuses', async () => {
    const worker = await newWorker(env, prisma, taskQueue);
    await worker.runUntil(async () => {
      const filed = await fileAccessRequest(env, prisma, taskQueue);
      const handle = env.client.workflow.getHandle(filed.workflowId);
      const applied = await appliedPayload(prisma, filed);
      const held = () =>
        prisma.userAccess.count({
          where: { portalUserId: filed.subjectId, roleName: filed.roleName, inactive: false },
        });

      // The commit re-checks the records against the rows (the API checked before): a field error and a
      // record sent at a version that is no longer active refuse the save; state and version stay.
      const badBlock = { ...applied.userAccesses!.at(-1)!, studyNames: ['NO-SUCH-STUDY'] };
      // One after another: a save that reaches the commit makes the others "busy" meanwhile.
      const refused = [];
      for (const userAccesses of [
        [...applied.userAccesses!.slice(0, -1), badBlock],
        [{ ...applied.userAccesses![0]!, id: 2_000_000_000 }],
      ]) {
        refused.push(
          await failureType(handle.executeUpdate(reviewUpdate, { args: [review({ payload: { userAccesses } })] })),
        );
      }
      // The payload changes nothing and neither does the request: 304 from the commit.
      refused.push(
        await failureType(
          handle.executeUpdate(reviewUpdate, {
            args: [review({ requestStatus: 'NEW', payload: { userAccesses: applied.userAccesses!.slice(0, -1) } })],
          }),
        ),
      );
      expect(refused).toEqual(['INVALID', 'INVALID', 'NO_CHANGES']);
      expect(await prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.id } })).toMatchObject({
        requestStatus: 'NEW',
        versionno: 0,
      });
      expect((await handle.query(stateQuery)).version).toBe(0);

      // Applied at IN_PROGRESS: granted at once, whatever the status (001 §2.8).
      await handle.executeUpdate(reviewUpdate, { args: [review({ payload: applied })] });
      expect(await held()).toBe(1);
      // Taken away again and approved without applying: the approval grants nothing by itself.
      const removed = await appliedPayload(prisma, filed);
      await handle.executeUpdate(reviewUpdate, {
        args: [
          review({
            expectedVersion: 1,
            payload: {
              userAccesses: removed.userAccesses!.filter((a) => a.roleName !== filed.roleName),
            },
          }),
        ],
      });
      expect(await held()).toBe(0);
      await handle.executeUpdate(reviewUpdate, {
        args: [review({ expectedVersion: 2, requestStatus: 'APPROVED' })],
      });
      await handle.result();
      expect(await held()).toBe(0);
      // The versions of the role's chain: granted (v1), then removed (v2, inactive), both by this request.
      const chain = await prisma.userAccess.findMany({
        where: { sourceRequestId: filed.id },
        orderBy: { versionno: 'asc' },
      });
      expect(chain.map((c) => [c.versionno, c.inactive])).toEqual([
        [1, true],
        [2, true],
      ]);
      expect(chain[1]!.priorAccessControlId).toBe(chain[0]!.id);
      expect(await auditActions(prisma, filed.workflowId)).toEqual([
        'CREATED',
        'ACCESS_UPDATED',
        'STATUS_IN_PROGRESS',
        'ACCESS_UPDATED',
        'REVIEW_SAVED',
        'STATUS_APPROVED',
        'MAIL_SENT',
      ]);
    });
  });
});
