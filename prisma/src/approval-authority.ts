/**
 * Who may decide an approval stage (docs/decisions.md "Approval policies"; contract approval-policies.ts), written
 * once for the API's check before the `decideStage` update, the worker's re-check inside the commit, the
 * approvers' mail and 'Awaiting my approval'. Read at call time from PostgreSQL, never cached in a process.
 *
 * - LAO_STAFF: an active record of the reviewer study role (ACCESS_REVIEW_STUDY_ROLE) whose `laoIds` overlap the
 *   request's `approvalLaoIds`;
 * - STUDY_APPROVERS: a named approver of one of the request's `approvalStudyNames`;
 * - USER_SUPPORT: WRITE_USERS.
 * Never the request's requester or subject (nobody decides a request they filed or that names them).
 */
import type { ApproverGroup } from '@portal/contract';
import { z } from 'zod';
import { Prisma } from '../generated/client/client';
import type { SqlRunner } from './sql-runner';

/** What of a request decides who may approve its open stage. */
export interface StageAudience {
  approvalGroup: ApproverGroup;
  approvalLaoIds: string[];
  approvalStudyNames: string[];
  requesterUserId: number;
  subjectUserId: number;
}

/** The actor: portal user id and permissions (000 §6). */
export interface StageActor {
  userId: number;
  permissions: readonly string[];
}

/**
 * The one condition of the module's rules: the user whose id is `userId` belongs to `group` for the LAOs
 * `laoIds` and the studies `studyNames` (each an SQL expression: bound values, or a request row's columns).
 */
function groupSql(
  group: ApproverGroup,
  userId: Prisma.Sql,
  laoIds: Prisma.Sql,
  studyNames: Prisma.Sql,
  reviewerStudyRole: string,
): Prisma.Sql {
  switch (group) {
    case 'LAO_STAFF':
      return Prisma.sql`EXISTS (SELECT 1 FROM "UserAccess" ua
         WHERE ua."portalUserId" = ${userId} AND NOT ua."inactive" AND ua."roleName" = ${reviewerStudyRole}
           AND ua."laoIds" && ${laoIds})`;
    case 'STUDY_APPROVERS':
      return Prisma.sql`EXISTS (SELECT 1 FROM "StudyApprover" sa JOIN "Study" s ON s."id" = sa."studyId"
         WHERE sa."portalUserId" = ${userId} AND s."study" = ANY(${studyNames}))`;
    case 'USER_SUPPORT':
      return Prisma.sql`EXISTS (SELECT 1 FROM "PortalUserRole" pur JOIN "PortalRole" pr ON pr."id" = pur."portalRoleId"
         WHERE pur."portalUserId" = ${userId} AND pr."permissions"::text[] && ARRAY['WRITE_USERS', 'ADMIN'])`;
  }
}

/**
 * SQL condition on the portal user aliased `u` (a "PortalUser" row): `u` belongs to `group` for the request's
 * LAOs / studies. WRITE_USERS (or ADMIN, which implies it; 000 §6) is read from the user's portal roles.
 */
export function approverGroupSql(
  audience: Omit<StageAudience, 'requesterUserId' | 'subjectUserId'>,
  reviewerStudyRole: string,
): Prisma.Sql {
  return groupSql(
    audience.approvalGroup,
    Prisma.sql`u."id"`,
    Prisma.sql`${audience.approvalLaoIds}::text[]`,
    Prisma.sql`${audience.approvalStudyNames}::text[]`,
    reviewerStudyRole,
  );
}

/**
 * SQL condition on the request aliased `alias` (an "AccessModRequest" row): it has an open stage that `actor`
 * may decide now ('Awaiting my approval'): the stage's group read from the row's `approvalGroup`,
 * `approvalLaoIds` and `approvalStudyNames`, USER_SUPPORT from the actor's permissions of this session (as
 * `mayDecideStage`), never a request the actor filed or is the subject of. Starts with `approvalStage IS NOT
 * NULL`, the predicate of the partial index "AccessModRequest_approval_open_idx".
 */
export function awaitingApprovalSql(alias: string, actor: StageActor, reviewerStudyRole: string): Prisma.Sql {
  const a = (column: string) => Prisma.raw(`"${alias}"."${column}"`);
  const me = Prisma.sql`${actor.userId}::int`;
  const support = actor.permissions.includes('WRITE_USERS');
  // The actor's LAOs and studies, read once (uncorrelated: PostgreSQL runs each as one InitPlan), then an array
  // overlap per open stage: the same rule as groupSql's EXISTS, without a probe per row.
  const myLaos = Prisma.sql`(SELECT ARRAY(SELECT DISTINCT lao FROM "UserAccess" ua, unnest(ua."laoIds") lao
      WHERE ua."portalUserId" = ${me} AND NOT ua."inactive" AND ua."roleName" = ${reviewerStudyRole}))`;
  const myStudies = Prisma.sql`(SELECT ARRAY(SELECT s."study"::text FROM "StudyApprover" sa
      JOIN "Study" s ON s."id" = sa."studyId" WHERE sa."portalUserId" = ${me}))`;
  return Prisma.sql`${a('approvalStage')} IS NOT NULL
    AND ${a('requesterUserId')} <> ${me} AND ${a('subjectUserId')} <> ${me}
    AND ((${a('approvalGroup')} = 'LAO_STAFF'::"ApproverGroup" AND ${a('approvalLaoIds')} && ${myLaos})
      OR (${a('approvalGroup')} = 'STUDY_APPROVERS'::"ApproverGroup" AND ${a('approvalStudyNames')} && ${myStudies})
      OR (${a('approvalGroup')} = 'USER_SUPPORT'::"ApproverGroup" AND ${support}::boolean))`;
}

const OneSchema = z.array(z.object({ one: z.number() }));

/**
 * True when `actor` may decide the request's open stage now (see the module's rules). USER_SUPPORT is the
 * actor's permissions of this session; the other groups are read from the database.
 */
export async function mayDecideStage(
  run: SqlRunner,
  audience: StageAudience,
  actor: StageActor,
  reviewerStudyRole: string,
): Promise<boolean> {
  if (actor.userId === audience.requesterUserId || actor.userId === audience.subjectUserId) return false;
  if (audience.approvalGroup === 'USER_SUPPORT') return actor.permissions.includes('WRITE_USERS');
  const rows = OneSchema.parse(
    await run(Prisma.sql`SELECT 1 AS one FROM "PortalUser" u
       WHERE u."id" = ${actor.userId}::int AND NOT u."inactive" AND ${approverGroupSql(audience, reviewerStudyRole)}`),
  );
  return rows.length > 0;
}

const ApproverSchema = z.array(
  z.object({ id: z.number().int(), email: z.string(), firstName: z.string(), lastName: z.string() }),
);
export type StageApproverContact = z.infer<typeof ApproverSchema>[number];

/** The active people who may decide the stage (for its mail), requester and subject excluded, by id. */
export async function stageApprovers(
  run: SqlRunner,
  audience: StageAudience,
  reviewerStudyRole: string,
): Promise<StageApproverContact[]> {
  return ApproverSchema.parse(
    await run(Prisma.sql`SELECT u."id", u."email", u."firstName", u."lastName" FROM "PortalUser" u
       WHERE NOT u."inactive" AND u."id" <> ALL(${[audience.requesterUserId, audience.subjectUserId]}::int[])
         AND ${approverGroupSql(audience, reviewerStudyRole)}
       ORDER BY u."id"`),
  );
}

/** True when anyone active may decide the stage (requester and subject excluded): one probe, no list. */
export async function anyStageApprover(
  run: SqlRunner,
  audience: StageAudience,
  reviewerStudyRole: string,
): Promise<boolean> {
  const rows = OneSchema.parse(
    await run(Prisma.sql`SELECT 1 AS one FROM "PortalUser" u
       WHERE NOT u."inactive" AND u."id" <> ALL(${[audience.requesterUserId, audience.subjectUserId]}::int[])
         AND ${approverGroupSql(audience, reviewerStudyRole)}
       LIMIT 1`),
  );
  return rows.length > 0;
}
