/**
 * The proxy batch's filing activity (REQUEST-LIFECYCLE.md "Proxy bulk batch"; 001 §4 Proxy submission): one
 * user's access-change request, in ONE transaction under the (ACCESS_CHANGE, subject) filing lock:
 * - the user's item already has an outcome (an earlier attempt committed): that stored outcome;
 * - the user has an unresolved access-change request: 601, skipped;
 * - the request type for this user: NEW when they do not hold the role, CHANGE when they do;
 * - 422 when the user was deactivated since the submission or the role is no longer an active study role
 *   (the first user's 422 aborts the batch, 001 §4), 304 for a CHANGE identical to what they hold with no
 *   comment;
 * - otherwise the request row (comment prefixed with the proxy marker), its CREATED audit row, the item's
 *   outcome and the batch counters.
 * After the commit it starts `access-change-<id>` (rule 1) through the batch's start (start-request.ts:
 * `ProxyBatchId`, the batch's requester label), and marks the row started;
 * a retried attempt that finds the outcome starts it again when the row is still unmarked.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  ACTIVE_REQUEST_EXISTS_STATUS,
  type AccessControl,
  RESOLVED_STATUSES,
  type RequestType,
  proxyComment,
} from '@portal/contract';
import { LOCK_NAMESPACES, Prisma, type PrismaClient } from '@portal/db';
import { z } from 'zod';
import {
  type FileProxyItemInput,
  PROXY_BATCH_NOT_FOUND,
  type ProxyItemOutcome,
  accessChangeWorkflowId,
} from '@portal/workflows';
import { personLabel } from '../request-reads';
import type { Tx } from '../types';
import { type BatchRequestStart, startBatchRequestWorkflow } from './start-request';

type Status = ProxyItemOutcome['responseStatus'];

const sameSet = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;

/** True when `block` asks for exactly what the held record gives. */
function sameAccess(
  block: AccessControl,
  held: { siteCodes: string[]; laoIds: string[]; studyNames: string[]; systemAccessIds: number[] },
): boolean {
  return (
    sameSet(block.siteCodes, held.siteCodes) &&
    sameSet(block.laoIds, held.laoIds) &&
    sameSet(block.studyNames, held.studyNames) &&
    sameSet(block.systemAccessIds, held.systemAccessIds)
  );
}

interface Filed {
  outcome: ProxyItemOutcome;
  /** What the start after the commit needs, when the request's workflow is not known to run. */
  start: Pick<BatchRequestStart, 'subjectUserId' | 'proxyUserId' | 'subjectLabel' | 'proxyLabel'> | null;
}

const PartyRow = { firstName: z.string(), lastName: z.string(), username: z.string(), email: z.string() };
/**
 * Everything one filing decides on, read in one statement after the filing lock: the item (with any stored
 * outcome), the batch, subject and proxy, whether the subject has an unresolved request, whether the role
 * is still an active study role, and the subject's record of that role.
 */
const ItemStateSchema = z.object({
  portalUserId: z.number(),
  responseStatus: z.number().nullable(),
  success: z.boolean().nullable(),
  accessModRequestId: z.number().nullable(),
  proxyUserId: z.number(),
  accessControls: z.array(z.custom<AccessControl>((v) => typeof v === 'object' && v !== null)).min(1),
  requesterComments: z.string(),
  subject: z.object({ ...PartyRow, inactive: z.boolean() }),
  proxy: z.object(PartyRow),
  openRequest: z.boolean(),
  roleActive: z.boolean(),
  held: z
    .object({
      id: z.number(),
      siteCodes: z.array(z.string()),
      laoIds: z.array(z.string()),
      studyNames: z.array(z.string()),
      systemAccessIds: z.array(z.number()),
    })
    .nullable(),
});

const itemStateSql = (input: FileProxyItemInput) => Prisma.sql`
  SELECT i."portalUserId", i."responseStatus", i."success", i."accessModRequestId",
         b."proxyUserId", b."accessControls", b."requesterComments",
         json_build_object('firstName', s."firstName", 'lastName', s."lastName", 'username', s."username",
                           'email', s."email", 'inactive', s."inactive") AS "subject",
         json_build_object('firstName', p."firstName", 'lastName', p."lastName", 'username', p."username",
                           'email', p."email") AS "proxy",
         EXISTS (SELECT 1 FROM "AccessModRequest" r
                  WHERE r."subjectUserId" = s."id"
                    AND r."requestStatus"::text <> ALL (${[...RESOLVED_STATUSES]}::text[])) AS "openRequest",
         EXISTS (SELECT 1 FROM "StudyRole" sr
                  WHERE sr."roleName" = b."accessControls"->0->>'roleName' AND NOT sr."inactive") AS "roleActive",
         (SELECT json_build_object('id', u."id", 'siteCodes', coalesce(u."siteCodes", '{}'),
                                   'laoIds', coalesce(u."laoIds", '{}'), 'studyNames', coalesce(u."studyNames", '{}'),
                                   'systemAccessIds', coalesce(u."systemAccessIds", '{}'))
            FROM "UserAccess" u
           WHERE u."portalUserId" = s."id" AND u."roleName" = b."accessControls"->0->>'roleName' AND NOT u."inactive"
           ORDER BY u."id" LIMIT 1) AS "held"
    FROM "ProxyBatchItem" i
    JOIN "ProxyBatch" b ON b."id" = i."batchId"
    JOIN "PortalUser" s ON s."id" = i."portalUserId"
    JOIN "PortalUser" p ON p."id" = b."proxyUserId"
   WHERE i."batchId" = ${input.batchId} AND i."requestNum" = ${input.requestNum}`;

interface Recorded {
  requestType?: RequestType;
  fieldErrors?: Record<string, string[]>;
  /** A filed request: its id, and the statements that write its row and audit row (named CTEs). */
  filed?: { requestId: number; writes: Prisma.Sql[] };
}

/**
 * The item's outcome and the batch counters in one statement; for a filed request also the request row and
 * its CREATED audit row, so a user's filing is a handful of round trips, not one per row.
 */
function recordSql(input: FileProxyItemInput, status: Status, extra: Recorded): Prisma.Sql {
  const success = status === 200;
  const fieldErrors = extra.fieldErrors ? JSON.stringify(extra.fieldErrors) : null;
  const filed = extra.filed;
  return Prisma.sql`
    WITH ${filed ? Prisma.sql`${Prisma.join(filed.writes, ', ')},` : Prisma.empty}
    item AS (
      UPDATE "ProxyBatchItem"
         SET "responseStatus" = ${status}, "success" = ${success},
             "activeRequestAlreadyExistsForUser" = ${status === ACTIVE_REQUEST_EXISTS_STATUS},
             "requestType" = ${extra.requestType ?? null}::"RequestType",
             "accessModRequestId" = ${filed?.requestId ?? null}::int4,
             "fieldErrors" = ${fieldErrors}::jsonb, "processedAt" = now()
       WHERE "batchId" = ${input.batchId} AND "requestNum" = ${input.requestNum}
      RETURNING 1)
    UPDATE "ProxyBatch"
       SET "processed" = "processed" + 1,
           "numSuccesses" = "numSuccesses" + ${success ? 1 : 0}, "numFailures" = "numFailures" + ${success ? 0 : 1}
     WHERE "id" = ${input.batchId} AND EXISTS (SELECT 1 FROM item)`;
}

async function fileInTransaction(tx: Tx, input: FileProxyItemInput): Promise<Filed> {
  // The (ACCESS_CHANGE, subject) filing lock first; the state is read by the next statement, so it sees
  // whatever a concurrent attempt of this activity committed while this one waited.
  const locked = await tx.$queryRaw<Array<{ portalUserId: number }>>`
    SELECT i."portalUserId", pg_advisory_xact_lock(${LOCK_NAMESPACES.ACCESS_CHANGE}::int4, i."portalUserId")::text
      FROM "ProxyBatchItem" i WHERE i."batchId" = ${input.batchId} AND i."requestNum" = ${input.requestNum}`;
  const [row] = locked.length ? await tx.$queryRaw<unknown[]>(itemStateSql(input)) : [];
  if (!row) {
    throw ApplicationFailure.nonRetryable(
      `proxy batch ${input.batchId} has no user #${input.requestNum}`,
      PROXY_BATCH_NOT_FOUND,
    );
  }
  const state = ItemStateSchema.parse(row);
  if (state.responseStatus !== null) {
    return {
      outcome: {
        requestNum: input.requestNum,
        responseStatus: state.responseStatus as Status,
        success: state.success ?? false,
        requestId: state.accessModRequestId,
      },
      start: null,
    };
  }
  const outcome = (status: Status, requestId: number | null = null): ProxyItemOutcome => ({
    requestNum: input.requestNum,
    responseStatus: status,
    success: status === 200,
    requestId,
  });
  const refuse = async (status: Status, extra: Recorded = {}): Promise<Filed> => {
    await tx.$executeRaw(recordSql(input, status, extra));
    return { outcome: outcome(status), start: null };
  };

  if (state.openRequest) return refuse(ACTIVE_REQUEST_EXISTS_STATUS);
  // An inactive subject is refused like an open request: nothing may be filed for them now.
  if (state.subject.inactive) return refuse(422);
  if (!state.roleActive) return refuse(422, { fieldErrors: { 'accessControls[0].roleName': ['unknown'] } });
  const block = state.accessControls[0]!;
  const requestType: RequestType = state.held ? 'CHANGE' : 'NEW';
  if (state.held && sameAccess(block, state.held) && !state.requesterComments) return refuse(304, { requestType });

  const [{ id }] = await tx.$queryRaw<
    [{ id: bigint }]
  >`SELECT nextval(pg_get_serial_sequence('"AccessModRequest"', 'id')) AS id`;
  const requestId = Number(id);
  const workflowId = accessChangeWorkflowId(requestId);
  const { subject, proxy } = state;
  const party = (u: typeof proxy, id: number) => ({ name: `${u.firstName} ${u.lastName}`, email: u.email, id });
  const accessControls = JSON.stringify([{ ...block, questionNum: block.questionNum ?? 1 }]);
  const comment = proxyComment(
    party(proxy, state.proxyUserId),
    party(subject, state.portalUserId),
    state.requesterComments,
  ).slice(0, 1024);
  const after = JSON.stringify({
    requestType,
    requestStatus: 'NEW',
    accessControls: JSON.parse(accessControls) as unknown,
    proxyBatchId: input.batchId,
  });
  const request = Prisma.sql`req AS (
    INSERT INTO "AccessModRequest" ("id", "workflowId", "requestType", "requestStatus", "subjectUserId",
                                    "requesterUserId", "isProxyRequest", "accessControls", "existingUserAccessId",
                                    "requesterComments", "lastModifiedBy")
    VALUES (${requestId}, ${workflowId}, ${requestType}::"RequestType", 'NEW', ${state.portalUserId},
            ${state.proxyUserId}, true, ${accessControls}::jsonb, ${state.held?.id ?? null}::int4, ${comment},
            ${proxy.username})
    RETURNING "id")`;
  const audit = Prisma.sql`aud AS (
    INSERT INTO "AuditEvent" ("actorUserId", "actorUsername", "entityType", "entityId", "action", "after",
                              "workflowId", "idempotencyKey")
    SELECT ${state.proxyUserId}, ${proxy.username}, 'AccessModRequest', ${String(requestId)}, 'CREATED',
           ${after}::jsonb, ${workflowId}, ${`${workflowId}:0`} FROM req)`;
  await tx.$executeRaw(recordSql(input, 200, { requestType, filed: { requestId, writes: [request, audit] } }));
  return {
    outcome: outcome(200, requestId),
    start: {
      subjectUserId: state.portalUserId,
      proxyUserId: state.proxyUserId,
      subjectLabel: personLabel(subject),
      proxyLabel: personLabel(proxy),
    },
  };
}

/** Builds the activity around one Prisma client; the Temporal client is the worker's (activity context). */
export function createFileProxyBatchItem(prisma: PrismaClient) {
  return async function fileProxyBatchItem(input: FileProxyItemInput): Promise<ProxyItemOutcome> {
    let filed = await prisma.$transaction((tx) => fileInTransaction(tx, input), { timeout: 20_000 });
    const requestId = filed.outcome.requestId;
    if (!filed.start && requestId !== null) {
      // An earlier attempt filed it; start its workflow unless that start was confirmed.
      const row = await prisma.accessModRequest.findUniqueOrThrow({
        where: { id: requestId },
        include: { subject: true, requester: true },
      });
      if (row.workflowStartedAt) return filed.outcome;
      filed = {
        ...filed,
        start: {
          subjectUserId: row.subjectUserId,
          proxyUserId: row.requesterUserId,
          subjectLabel: personLabel(row.subject),
          proxyLabel: personLabel(row.requester),
        },
      };
    }
    if (filed.start && requestId !== null) {
      const ctx = Context.current();
      await startBatchRequestWorkflow(ctx.client, ctx.info.taskQueue, {
        ...filed.start,
        requestId,
        batchId: input.batchId,
        notificationDeadline: input.notificationDeadline,
      });
      await prisma.$executeRaw`UPDATE "AccessModRequest" SET "workflowStartedAt" = now() WHERE "id" = ${requestId}`;
    }
    return filed.outcome;
  };
}
