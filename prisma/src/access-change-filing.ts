/**
 * The transactional filing of one access-modification request, written once for its two callers (issue 21
 * case 11): the API's POST /rest/secure/user_access_mod_request (001 §7; own requests and single proxy
 * requests) and the proxy batch's filing of one user (001 §4 Proxy submission). Under the
 * (ACCESS_CHANGE, subject) filing lock it reads the subject, their held access and unresolved requests, then
 * refuses or inserts the request row and its CREATED audit row (key `<workflowId>:0`).
 *
 * The same for both callers:
 * - an inactive subject is refused (422): nothing may be filed for a person who cannot use it;
 * - a block's study role must still be an active study role (422 `accessControls[i].roleName: unknown`);
 * - a CHANGE asking for exactly the access held, without comments, has nothing to submit (304, 001 §5);
 * - a proxy's request is marked `isProxyRequest` and its comment carries the proxy marker (000 §3).
 * Where the spec differs by caller:
 * - an unresolved request: a single request is refused when an unresolved request of the subject names one of
 *   its study roles (REQUEST_IN_PROGRESS); a batch user is skipped when they have any unresolved request other
 *   than those the same batch filed for their earlier role blocks (001 §4: 601, '(an active request already
 *   exists for this user)');
 * - the request type: a single request names it (NEW must not name a held role: `unique`; CHANGE and REMOVE
 *   must name one held role: `nonexistent`, one block only: `invalid`); a batch derives it per user (CHANGE
 *   when the user holds the block's role, NEW otherwise; 001 §4).
 * The caller holds the (ACCESS_CHANGE, subject) filing lock, commits, then starts `access-change-<id>` (rule 1).
 * Written as four statements on a runner (one read, the id, one insert of the request and its audit row), so the
 * API files on a `pg` connection and the worker in its Prisma transaction with the same SQL (issue 24: filing
 * through Prisma's client took about ten round trips of its runtime).
 */
import {
  type AccessControl,
  type FieldErrors,
  RESOLVED_STATUSES,
  type RequestType,
  proxyComment,
  sameAccess,
} from '@portal/contract';
import { z } from 'zod';
import { type AccessModRequest, type PortalUser, Prisma } from '../generated/client/client';
import { FilingPolicySchema, SiteLaoSchema, approvalPlanOf } from './approval-plan';
import type { SqlRunner } from './sql-runner';

/** A person as the proxy marker names them (000 §3). */
export interface FilingParty {
  id: number;
  name: string;
  email: string;
}

export type AccessChangeCaller =
  /** 001 §7 POST /rest/secure/user_access_mod_request: the body names the request type. */
  | { caller: 'REQUEST'; requestType: RequestType }
  /** 001 §4 Proxy submission: one user of batch `batchId`, the type derived from what they hold. */
  | { caller: 'PROXY_BATCH'; batchId: number };

export type AccessChangeFiling = AccessChangeCaller & {
  subjectUserId: number;
  /** Who files: the person themself, or the proxy. */
  requester: { id: number; username: string };
  /** The proxy filing for the subject, or null for an own request. */
  proxy: FilingParty | null;
  /** The configured marker a proxy's comment is written with (PROXY_COMMENT_MARKER, 000 §3). */
  proxyCommentMarker: string;
  accessControls: AccessControl[];
  /** The requester's own comment; a proxy's is stored after the proxy marker. */
  requesterComments: string;
  /** `access-change-<id>` (the workflows package owns the id's format). */
  workflowIdOf(requestId: number): string;
};

/** A party of a filed request as its readers need them (labels, the view's names and address). */
export type FilingPerson = Pick<PortalUser, 'id' | 'username' | 'firstName' | 'lastName' | 'email'>;

export type FiledAccessChange = AccessModRequest & { subject: FilingPerson; requester: FilingPerson };

export type AccessChangeFilingResult =
  | { outcome: 'FILED'; requestType: RequestType; request: FiledAccessChange }
  /** No user has the subject's id. */
  | { outcome: 'UNKNOWN_SUBJECT' }
  /** REQUEST_IN_PROGRESS for a single request, 601 for a batch user. */
  | { outcome: 'OPEN_REQUEST' }
  | { outcome: 'INVALID'; fieldErrors: FieldErrors; requestType?: RequestType }
  | { outcome: 'NO_CHANGES'; requestType: RequestType };

const push = (errors: FieldErrors, key: string, reason: string) => (errors[key] ??= []).push(reason);

const PersonSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  inactive: z.boolean(),
});

/** The filing's one read: the parties, the subject's unresolved requests' roles, held access, active roles. */
const FilingReadSchema = z
  .array(
    z.object({
      subject: PersonSchema.nullable(),
      requester: PersonSchema.nullable(),
      openCount: z.number().int(),
      openRoles: z.array(z.string().nullable()),
      held: z.array(
        z.object({
          id: z.number().int(),
          roleName: z.string(),
          siteCodes: z.array(z.string()),
          laoIds: z.array(z.string()),
          studyNames: z.array(z.string()),
          systemAccessIds: z.array(z.number().int()),
          accessEndDate: z.string().nullable(),
        }),
      ),
      activeRoles: z.array(z.string()),
      policies: z.array(FilingPolicySchema),
      siteLaos: z.array(SiteLaoSchema),
    }),
  )
  .length(1);

const personJson = (alias: string) =>
  Prisma.raw(`json_build_object('id', ${alias}."id", 'username', ${alias}."username", 'firstName', ${alias}."firstName",
    'lastName', ${alias}."lastName", 'email', ${alias}."email", 'inactive', ${alias}."inactive")`);

/** The read of `filing` (see FilingReadSchema): one statement, so one round trip under the filing lock. */
function filingReadSql(filing: AccessChangeFiling): Prisma.Sql {
  // A batch's requests for this user's earlier blocks are its own, not an active request that skips the next.
  const batchId = filing.caller === 'PROXY_BATCH' ? filing.batchId : null;
  const subjectId = filing.subjectUserId;
  const roleNames = filing.accessControls.map((b) => b.roleName);
  const siteCodes = [...new Set(filing.accessControls.flatMap((b) => b.siteCodes))];
  return Prisma.sql`
    WITH open AS (
      SELECT r."accessControls" FROM "AccessModRequest" r
       WHERE r."subjectUserId" = ${subjectId}::int
         AND r."requestStatus"::text <> ALL(${[...RESOLVED_STATUSES]}::text[])
         AND NOT EXISTS (SELECT 1 FROM "ProxyBatchItem" i
                          WHERE i."batchId" = ${batchId}::int AND i."portalUserId" = ${subjectId}::int
                            AND i."accessModRequestId" = r."id"))
    SELECT
      (SELECT ${personJson('u')} FROM "PortalUser" u WHERE u."id" = ${subjectId}::int) AS "subject",
      (SELECT ${personJson('u')} FROM "PortalUser" u WHERE u."id" = ${filing.requester.id}::int) AS "requester",
      (SELECT count(*)::int FROM open) AS "openCount",
      ARRAY(SELECT DISTINCT c->>'roleName' FROM open o, jsonb_array_elements(o."accessControls") c) AS "openRoles",
      COALESCE((SELECT json_agg(json_build_object('id', a."id", 'roleName', a."roleName",
                  'siteCodes', COALESCE(a."siteCodes", '{}'), 'laoIds', COALESCE(a."laoIds", '{}'),
                  'studyNames', COALESCE(a."studyNames", '{}'), 'systemAccessIds', COALESCE(a."systemAccessIds", '{}'),
                  'accessEndDate', to_char(a."accessEndDate", 'YYYY-MM-DD')) ORDER BY a."id")
                  FROM "UserAccess" a WHERE a."portalUserId" = ${subjectId}::int AND NOT a."inactive"),
               '[]'::json) AS "held",
      ARRAY(SELECT s."roleName"::text FROM "StudyRole" s
             WHERE s."roleName" = ANY(${roleNames}::text[]) AND NOT s."inactive")
        AS "activeRoles",
      COALESCE((SELECT json_agg(json_build_object('id', p."id", 'roleName', s."roleName",
                  'systemAccessId', p."systemAccessId", 'stages', p."stages") ORDER BY p."id")
                  FROM "ApprovalPolicy" p JOIN "StudyRole" s ON s."id" = p."studyRoleId"
                 WHERE p."active" AND s."roleName" = ANY(${roleNames}::text[])), '[]'::json) AS "policies",
      COALESCE((SELECT json_agg(json_build_object('siteCode', l."siteCode", 'laoCode', l."laoCode"))
                  FROM (SELECT r."siteCode"::text, r."laoCode"::text FROM "SiteRelation" r
                         WHERE r."active" AND r."siteCode" = ANY(${siteCodes}::text[])
                        UNION SELECT s."laoCode"::text, s."laoCode"::text FROM "Site" s
                         WHERE s."laoCode" = ANY(${siteCodes}::text[])) l), '[]'::json) AS "siteLaos"`;
}

const NextIdSchema = z.array(z.object({ id: z.number().int() })).length(1);
const InsertedSchema = z.array(z.object({ sysdat: z.string() })).length(1);

/**
 * Files one access-change request on `run`, the caller's transaction, which holds the (ACCESS_CHANGE, subject)
 * filing lock (see the module's rules).
 * @returns the filed row (with subject and requester) or the refusal. @throws when the database fails.
 */
export async function fileAccessChange(run: SqlRunner, filing: AccessChangeFiling): Promise<AccessChangeFilingResult> {
  const read = FilingReadSchema.parse(await run(filingReadSql(filing)))[0]!;
  const { subject, requester } = read;
  if (!subject) return { outcome: 'UNKNOWN_SUBJECT' };
  if (!requester) throw new Error(`filing: no user ${filing.requester.id} to file as`);
  const roleNames = filing.accessControls.map((b) => b.roleName);
  const openRoles = new Set(read.openRoles);
  if (filing.caller === 'PROXY_BATCH' ? read.openCount > 0 : roleNames.some((r) => openRoles.has(r))) {
    return { outcome: 'OPEN_REQUEST' };
  }
  if (subject.inactive) return { outcome: 'INVALID', fieldErrors: { portalUserId: ['unknown'] } };

  const heldOf = (roleName: string) => read.held.find((a) => a.roleName === roleName);
  const requestType: RequestType =
    filing.caller === 'REQUEST' ? filing.requestType : heldOf(roleNames[0]!) ? 'CHANGE' : 'NEW';
  const fieldErrors: FieldErrors = {};
  const active = new Set(read.activeRoles);
  filing.accessControls.forEach((b, i) => {
    const key = `accessControls[${i}].roleName`;
    if (!active.has(b.roleName)) push(fieldErrors, key, 'unknown');
    else if (requestType === 'NEW' && heldOf(b.roleName)) push(fieldErrors, key, 'unique');
    else if (requestType !== 'NEW' && !heldOf(b.roleName)) push(fieldErrors, key, 'nonexistent');
  });
  if (requestType !== 'NEW' && filing.accessControls.length !== 1) push(fieldErrors, 'accessControls', 'invalid');
  if (Object.keys(fieldErrors).length) return { outcome: 'INVALID', fieldErrors, requestType };

  const existing = requestType === 'NEW' ? undefined : heldOf(roleNames[0]!);
  if (requestType === 'CHANGE' && existing && !filing.requesterComments) {
    if (sameAccess(existing, filing.accessControls[0]!)) return { outcome: 'NO_CHANGES', requestType };
  }

  const { id: requestId } = NextIdSchema.parse(
    await run(Prisma.sql`SELECT nextval(pg_get_serial_sequence('"AccessModRequest"', 'id'))::int AS id`),
  )[0]!;
  const workflowId = filing.workflowIdOf(requestId);
  const accessControls = filing.accessControls.map((b, i) => ({ ...b, questionNum: b.questionNum ?? i + 1 }));
  const subjectParty = { id: subject.id, name: `${subject.firstName} ${subject.lastName}`, email: subject.email };
  const requesterComments = filing.proxy
    ? proxyComment(filing.proxyCommentMarker, filing.proxy, subjectParty, filing.requesterComments).slice(0, 1024)
    : filing.requesterComments;
  const existingUserAccessId = existing?.id ?? null;
  // The plan the request is filed under: a policy changed later does not move it (docs/decisions.md).
  const approvalPlan = approvalPlanOf(requestType, accessControls, read.policies, read.siteLaos);
  const after = {
    requestType,
    requestStatus: 'NEW',
    accessControls,
    ...(approvalPlan ? { approvalPlan } : {}),
    ...(filing.caller === 'PROXY_BATCH' ? { proxyBatchId: filing.batchId } : {}),
  };
  // The request and its CREATED audit row in one statement, both stamped with the transaction's UTC time.
  const { sysdat } = InsertedSchema.parse(
    await run(Prisma.sql`
      WITH filed AS (
        INSERT INTO "AccessModRequest" ("id", "workflowId", "requestType", "requestStatus", "subjectUserId",
                                        "requesterUserId", "isProxyRequest", "accessControls", "existingUserAccessId",
                                        "requesterComments", "lastModifiedBy", "sysdat", "dchng", "approvalPlan",
                                        "approvalLaoIds", "approvalStudyNames")
        VALUES (${requestId}::int, ${workflowId}, ${requestType}::"RequestType", 'NEW', ${subject.id}::int,
                ${filing.requester.id}::int, ${filing.proxy !== null}, ${JSON.stringify(accessControls)}::jsonb,
                ${existingUserAccessId}::int, ${requesterComments}, ${filing.requester.username},
                now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC',
                ${approvalPlan ? JSON.stringify(approvalPlan) : null}::jsonb, ${approvalPlan?.laoIds ?? []}::text[],
                ${approvalPlan?.studyNames ?? []}::text[])
        RETURNING "sysdat"
      ), audited AS (
        INSERT INTO "AuditEvent" ("at", "actorUserId", "actorUsername", "entityType", "entityId", "action", "after",
                                  "workflowId", "idempotencyKey")
        SELECT f."sysdat", ${filing.requester.id}::int, ${filing.requester.username}, 'AccessModRequest',
               ${String(requestId)}, 'CREATED', ${JSON.stringify(after)}::jsonb, ${workflowId}, ${`${workflowId}:0`}
          FROM filed f
      )
      SELECT to_char(f."sysdat", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "sysdat" FROM filed f`),
  )[0]!;
  const at = new Date(sysdat);
  const person = ({ inactive: _, ...p }: z.infer<typeof PersonSchema>): FilingPerson => p;
  return {
    outcome: 'FILED',
    requestType,
    request: {
      id: requestId,
      workflowId,
      requestType,
      requestStatus: 'NEW',
      subjectUserId: subject.id,
      requesterUserId: filing.requester.id,
      isProxyRequest: filing.proxy !== null,
      accessControls,
      existingUserAccessId,
      requesterComments,
      reviewerComments: '',
      sysaidTicket: '',
      versionno: 0,
      inactive: false,
      sysdat: at,
      dchng: at,
      lastModifiedBy: filing.requester.username,
      workflowStartedAt: null,
      approvalPlan: approvalPlan as unknown as Prisma.JsonValue,
      approvalStage: null,
      approvalGroup: null,
      approvalDeadline: null,
      approvalLaoIds: approvalPlan?.laoIds ?? [],
      approvalStudyNames: approvalPlan?.studyNames ?? [],
      subject: person(subject),
      requester: person(requester),
    },
  };
}
