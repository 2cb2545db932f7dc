/**
 * 'Awaiting my approval' (docs/decisions.md "Approval policies"; GET
 * /rest/secure/user_access_mod_request/awaiting_my_approval): the access-change requests with an open approval
 * stage the caller may decide now, by the stage's deadline (soonest first, then id), one page in the spec's
 * page envelope. Which requests is `awaitingApprovalSql` (prisma/src/approval-authority.ts, the one stage
 * rule), over the partial index "AccessModRequest_approval_open_idx". Values are bound; rows parsed with zod.
 */
import { z } from 'zod';
import { APPROVER_GROUPS, type AwaitingApprovalRow, type Page } from '@portal/contract';
import { Prisma, type StageActor, awaitingApprovalSql } from '@portal/db';
import type { Deps } from '../../../deps';
import { toPage } from '../../../http/page';

/** The page's sort, as the envelope names it. */
export const AWAITING_SORT = 'deadlineAt,asc';

const RowSchema = z.object({
  id: z.number().int(),
  requestType: z.enum(['NEW', 'CHANGE']),
  stage: z.number().int(),
  stages: z.number().int(),
  group: z.enum(APPROVER_GROUPS),
  escalated: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  roleNames: z.array(z.string()),
  dateSubmitted: z.date(),
  stageOpenedAt: z.date(),
  deadlineAt: z.date(),
});

/**
 * One page of the requests awaiting `actor`'s approval, and their count (see the module).
 * @throws ZodError when a row has an unexpected shape (a schema drift, answered 500).
 */
export async function awaitingMyApproval(
  deps: Deps,
  actor: StageActor,
  q: { page: number; size: number },
): Promise<Page<AwaitingApprovalRow>> {
  const where = Prisma.sql`${awaitingApprovalSql('a', actor, deps.cfg.ACCESS_REVIEW_STUDY_ROLE)}
    AND a."requestType" IN ('NEW', 'CHANGE')`;
  // The page's keys first, in deadline order over the partial index on (approvalDeadline, id); their rows after.
  const page = Prisma.sql`
    SELECT a."id" FROM "AccessModRequest" a WHERE ${where}
     ORDER BY a."approvalDeadline" ASC NULLS LAST, a."id" ASC
     LIMIT ${q.size}::int OFFSET ${(q.page - 1) * q.size}::bigint`;
  const [rows, [{ n }]] = await Promise.all([
    deps.prisma.$queryRaw<unknown[]>`
      SELECT a."id", a."requestType"::text AS "requestType", a."approvalStage" AS "stage",
             COALESCE(jsonb_array_length(a."approvalPlan"->'stages'), a."approvalStage")::int AS "stages",
             a."approvalGroup"::text AS "group", (st."escalatedAt" IS NOT NULL) AS "escalated",
             s."firstName", s."lastName", s."email",
             ARRAY(SELECT DISTINCT b->>'roleName' FROM jsonb_array_elements(a."accessControls") b
                    WHERE b->>'roleName' IS NOT NULL ORDER BY 1) AS "roleNames",
             a."sysdat" AS "dateSubmitted", COALESCE(st."openedAt", a."dchng") AS "stageOpenedAt",
             COALESCE(a."approvalDeadline", st."deadlineAt", a."dchng") AS "deadlineAt"
        FROM (${page}) p
        JOIN "AccessModRequest" a ON a."id" = p."id"
        JOIN "PortalUser" s ON s."id" = a."subjectUserId"
        LEFT JOIN "AccessRequestStage" st ON st."requestId" = a."id" AND st."stage" = a."approvalStage"
       ORDER BY a."approvalDeadline" ASC NULLS LAST, a."id" ASC`,
    deps.prisma.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM "AccessModRequest" a WHERE ${where}`,
  ]);
  const content = z
    .array(RowSchema)
    .parse(rows)
    .map((r) => ({
      ...r,
      dateSubmitted: r.dateSubmitted.toISOString(),
      stageOpenedAt: r.stageOpenedAt.toISOString(),
      deadlineAt: r.deadlineAt.toISOString(),
    }));
  return toPage(content, n, q, AWAITING_SORT);
}
