/**
 * Reviewer authority of access review campaigns (issue 25 "Access review campaigns"; contract/src/access-reviews.ts
 * "Who reviews an item"): who may see and decide a review item. Read at call time from PostgreSQL, never cached
 * in a process, so a study role granted or removed counts on the next call.
 *
 * A person may decide an item when (a) they hold WRITE_USERS (ADMIN implies it): every item, or (b) they hold
 * an active access record of the reviewer study role (ACCESS_REVIEW_STUDY_ROLE) whose LAOs overlap the item's
 * `reviewLaoIds`; in both cases never an item about themselves.
 */
import { z } from 'zod';
import { Prisma, type PrismaClient } from '@portal/db';
import type { AuthContext } from '../auth/guard';

type Db = PrismaClient | Prisma.TransactionClient;

/** The part of the signed-in user authority depends on (AuthContext fits). */
export type ReviewerActor = Pick<AuthContext, 'userId'> & { permissions: readonly string[] };

/** What a person may review: every item (`support`), else the items pooled to any of `laoIds`. */
export interface ReviewerScope {
  support: boolean;
  laoIds: string[];
}

/**
 * The caller's reviewer scope: `support` when they hold WRITE_USERS, `laoIds` the LAOs of their active access
 * records of `studyRole` (sorted, distinct; empty when they hold none).
 */
export async function reviewerScopeOf(db: Db, studyRole: string, actor: ReviewerActor): Promise<ReviewerScope> {
  return scopeFromRows(actor, await db.$queryRaw(reviewerLaosSql(studyRole, actor.userId)));
}

/**
 * The scope of `actor` from the rows of `reviewerLaosSql`, however they were read (Prisma or the API's pg pool).
 * @throws ZodError when a row is not `{ lao: string }`.
 */
export function scopeFromRows(actor: ReviewerActor, rows: unknown): ReviewerScope {
  const laos = z.array(z.object({ lao: z.string() })).parse(rows);
  return { support: actor.permissions.includes('WRITE_USERS'), laoIds: laos.map((r) => r.lao) };
}

/** The LAOs of a person's active access records of `studyRole`, distinct, sorted (rows `{ lao }`). */
export const reviewerLaosSql = (studyRole: string, userId: number): Prisma.Sql =>
  Prisma.sql`SELECT DISTINCT unnest("laoIds") AS lao FROM "UserAccess"
     WHERE "portalUserId" = ${userId}::int AND inactive = false AND "roleName" = ${studyRole}
     ORDER BY 1`;

/** True when the scope reviews anything at all (User Support, or reviewer study role for some LAO). */
export function reviewsAnything(scope: ReviewerScope): boolean {
  return scope.support || scope.laoIds.length > 0;
}

/**
 * True when the actor may decide some item of person `portalUserId` in an OPEN campaign: User Support (any
 * open item of that person), or an open item of theirs pooled to one of the actor's LAOs. Never for oneself.
 * Used by the provenance route to let a reviewer read the history of the people they review.
 */
export async function reviewsPerson(
  db: Db,
  studyRole: string,
  actor: ReviewerActor,
  portalUserId: number,
): Promise<boolean> {
  if (portalUserId === actor.userId) return false;
  const scope = await reviewerScopeOf(db, studyRole, actor);
  if (!reviewsAnything(scope)) return false;
  const rows = await db.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM "AccessReviewItem" i
      JOIN "AccessReviewCampaign" c ON c.id = i."campaignId"
     WHERE i."portalUserId" = ${portalUserId} AND c.status = 'OPEN'
       AND (${scope.support} OR i."reviewLaoIds" && ${scope.laoIds}::text[])
     LIMIT 1`;
  return rows.length > 0;
}
