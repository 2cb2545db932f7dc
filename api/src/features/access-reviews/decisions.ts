/**
 * A reviewer's decisions (issue 25 "decided one by one or in bulk"; POST /rest/secure/access_review/decisions):
 * Keep or Remove for the items named (at most ACCESS_REVIEW_LIMITS.bulkIds) or for every item of the caller
 * matching a filter in one campaign (at most bulkFilter), in one transaction:
 * 1. the campaign row FOR SHARE, refused unless OPEN (422 campaignStarting while its items are stored, else
 *    campaignClosed): a close (`UPDATE ... SET status='CLOSING' WHERE status='OPEN'`) waits for the deciders
 *    in flight, so the last decision before close wins and none lands after it;
 * 2. the items the caller may not decide (another LAO, their own, another campaign, unknown) are refused one by
 *    one (`notYourItem`); the others are locked in id order (two bulk decisions never deadlock) and updated in
 *    one statement; an item whose record changed since the snapshot is decided too, with the note
 *    `changedSinceSnapshot` (the campaign removes nothing for it);
 * 3. one audit row per decided item (ACCESS_REVIEW_DECIDED on the person's UserAccess), written by the same
 *    statement (an INSERT ... SELECT over the updated rows).
 * 4. with SIGNATURES=on (docs/decisions.md "Electronic signatures") the call is signed ACCESS_REVIEW_DECISION
 *    once: the ticket is taken before the update, and ONE Signature on the campaign names every item tried
 *    (`applied` false for a refused or changed-since-snapshot item); each result then says `signed: true`, so a
 *    screen shows an item not applied as 'Signed, not applied'.
 * Set-based (one statement for all the items; Prisma's createMany of 1,000 audit rows alone took over a second),
 * so 1,000 items answer well within 2 s.
 */
import { z } from 'zod';
import {
  ACCESS_REVIEW_LIMITS,
  ACCESS_REVIEW_MESSAGES,
  type AccessReviewDecisionBody,
  type AccessReviewDecisionResult,
  SIGNATURE_ERRORS,
  type SignatureRef,
  type SignatureView,
} from '@portal/contract';
import {
  ADMIN_SIGNED_ENTITIES,
  Prisma,
  type PrismaClient,
  reviewDecisionContent,
  signatureView,
  takeSignatureTicket,
  writeSignature,
} from '@portal/db';
import type { AuthContext } from '../../auth/guard';
import { HttpError, unavailable, unprocessable } from '../../http/errors';
import type { ReviewerScope } from '../../shared/access-review-authority';
import { itemIdsSql, mayDecideSql } from './items-sql';

type Tx = Prisma.TransactionClient;

const CampaignRowsSchema = z.array(z.object({ status: z.string(), name: z.string(), workflowId: z.string() })).max(1);
const DecidedRowsSchema = z.array(
  z.object({ id: z.number().int(), accessId: z.number().int(), portalUserId: z.number().int(), changed: z.boolean() }),
);

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The ids of the caller's items matching the body's filter, refusing more than bulkFilter (422 `filter: size`). */
async function filteredIds(tx: Tx, body: AccessReviewDecisionBody, actor: AuthContext, scope: ReviewerScope) {
  const filter = body.filter!;
  const sel = {
    campaignIds: [body.campaignId],
    userId: actor.userId,
    scope,
    state: filter.state,
    filter: filter.text || undefined,
  };
  const rows = z
    .array(z.object({ id: z.number().int() }))
    .parse(await tx.$queryRaw(itemIdsSql(sel, ACCESS_REVIEW_LIMITS.bulkFilter + 1)));
  if (rows.length > ACCESS_REVIEW_LIMITS.bulkFilter) {
    throw unprocessable({ filter: ['size'] }, [ACCESS_REVIEW_MESSAGES.decideFailed]);
  }
  return rows.map((r) => r.id);
}

/**
 * Sets the decision of those of `ids` the caller may decide in the campaign (locked in id order first) and
 * writes their audit rows, in one statement. @returns the decided items, changed since the snapshot or not.
 */
async function decide(
  tx: Tx,
  body: AccessReviewDecisionBody,
  actor: AuthContext,
  scope: ReviewerScope,
  campaign: { name: string; workflowId: string },
  ids: number[],
  at: Date,
) {
  if (!ids.length) return [];
  return DecidedRowsSchema.parse(
    await tx.$queryRaw(Prisma.sql`
      WITH locked AS (
        SELECT i."id" FROM "AccessReviewItem" i
         WHERE i."id" = ANY(${ids}::int[]) AND i."campaignId" = ${body.campaignId}::int
           AND ${mayDecideSql(actor.userId, scope)}
         ORDER BY i."id" FOR UPDATE
      ), done AS (
        UPDATE "AccessReviewItem" i
           SET "decision" = ${body.decision}::"AccessReviewDecision", "comment" = ${body.comment ?? null},
               "decidedByUserId" = ${actor.userId}::int, "decidedByUsername" = ${actor.username},
               "decidedAt" = ${at}::timestamp, "defaulted" = false
          FROM locked WHERE i."id" = locked."id"
        RETURNING i."id", i."accessId", i."portalUserId"
      ), audited AS (
        INSERT INTO "AuditEvent" ("at", "actorUserId", "actorUsername", "entityType", "entityId", "action", "after",
                                  "workflowId")
        SELECT ${at}::timestamp, ${actor.userId}::int, ${actor.username}, 'UserAccess', d."portalUserId"::text,
               'ACCESS_REVIEW_DECIDED',
               jsonb_build_object('accessId', d."accessId", 'itemId', d."id", 'campaignId', ${body.campaignId}::int,
                 'campaignName', ${campaign.name}::text, 'decision', ${body.decision}::text,
                 'comment', ${body.comment ?? null}::text),
               ${campaign.workflowId}
          FROM done d ORDER BY d."id"
      )
      SELECT d."id", d."accessId", d."portalUserId",
             COALESCE((SELECT a."inactive" FROM "UserAccess" a WHERE a."id" = d."accessId"), true) AS changed
        FROM done d`),
  );
}

/**
 * Records the caller's decision (module note). `signature`: the route's checked ticket (SIGNATURES=on).
 * @throws HttpError 422 (campaign unknown or not OPEN, filter matching too many, SIGNATURE_INVALID), 503 when
 *   the transaction fails.
 */
export async function recordDecisions(
  prisma: PrismaClient,
  actor: AuthContext,
  scope: ReviewerScope,
  body: AccessReviewDecisionBody,
  signature?: SignatureRef,
): Promise<AccessReviewDecisionResult> {
  try {
    return await prisma.$transaction(
      async (tx) => {
        const campaign = CampaignRowsSchema.parse(
          await tx.$queryRaw`SELECT "status"::text AS status, "name", "workflowId" FROM "AccessReviewCampaign"
            WHERE "id" = ${body.campaignId}::int FOR SHARE`,
        )[0];
        if (!campaign) throw unprocessable({ campaignId: ['unknown'] }, [ACCESS_REVIEW_MESSAGES.decideFailed]);
        if (campaign.status === 'STARTING') throw unprocessable({}, [ACCESS_REVIEW_MESSAGES.campaignStarting]);
        if (campaign.status !== 'OPEN') throw unprocessable({}, [ACCESS_REVIEW_MESSAGES.campaignClosed]);
        const tried = body.itemIds ? [...new Set(body.itemIds)] : await filteredIds(tx, body, actor, scope);
        const ticket = signature ? await takeSignatureTicket(tx, signature.ticketId, actor.userId) : undefined;
        if (ticket === null) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);
        // The decision time is the items' decidedAt and the signed content's: how a signature finds its items.
        const at = new Date();
        const decided = await decide(tx, body, actor, scope, campaign, tried, at);
        const byId = new Map(decided.map((d) => [d.id, d]));
        const signed = ticket ? { signed: true } : {};
        const results = tried.map((itemId) => {
          const d = byId.get(itemId);
          if (!d) return { itemId, ok: false, message: ACCESS_REVIEW_MESSAGES.notYourItem, ...signed };
          const message = d.changed ? ACCESS_REVIEW_MESSAGES.changedSinceSnapshot : null;
          return { itemId, ok: true, message, ...signed };
        });
        let shown: { signatures: SignatureView[] } | Record<string, never> = {};
        if (ticket) {
          const written = await writeSignature(tx, ticket, {
            entityType: ADMIN_SIGNED_ENTITIES.campaign,
            entityId: body.campaignId,
            content: reviewDecisionContent({
              campaignId: body.campaignId,
              decision: body.decision,
              comment: body.comment ?? null,
              decidedAt: at.toISOString(),
              items: tried.map((itemId) => {
                const d = byId.get(itemId);
                return { itemId, accessId: d?.accessId ?? null, applied: d !== undefined && !d.changed };
              }),
            }),
          });
          // The one signature, shown with the results (§11.50): it names every item tried.
          const row = await tx.signature.findUniqueOrThrow({ where: { id: written.id } });
          shown = { signatures: [signatureView(row, true, tried.map(String))] };
        }
        return { decided: decided.length, refused: results.length - decided.length, results, ...shown };
      },
      { timeout: 20_000 },
    );
  } catch (err) {
    if (err instanceof HttpError) throw err;
    console.error(`access review: the decision transaction failed: ${describe(err)}`);
    throw unavailable(ACCESS_REVIEW_MESSAGES.decideFailed);
  }
}
