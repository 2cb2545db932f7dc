/**
 * The views of the signatures of the decisions the API writes itself (USER_ACCESS_EDIT, USER_STATUS,
 * ACCESS_REVIEW_DECISION, CAMPAIGN_CLOSE; docs/decisions.md "Electronic signatures"): verified against the rows
 * as stored now (`verifyAdminSignatures`, a few set-based queries for all of them), shown as SignatureView
 * (§11.50); a bulk review decision's one signature names its items (`items`: their ids).
 */
import type { SignatureView } from '@portal/contract';
import {
  ADMIN_SIGNED_ENTITIES,
  type PrismaClient,
  type Signature,
  signatureView,
  verifyAdminSignatures,
} from '@portal/db';

/** The items a signature names (a review decision's item ids), else undefined. */
function itemsOf(row: Signature): string[] | undefined {
  const items = (row.content as { items?: { itemId?: unknown }[] } | null)?.items;
  return Array.isArray(items) ? items.map((i) => String(i?.itemId)) : undefined;
}

/** `rows` verified and shown, by signature id. */
export async function adminSignatureViews(
  prisma: PrismaClient,
  rows: Signature[],
): Promise<Map<bigint, SignatureView>> {
  if (!rows.length) return new Map();
  const valid = await verifyAdminSignatures(prisma, rows);
  return new Map(rows.map((r) => [r.id, signatureView(r, valid.get(r.id) ?? false, itemsOf(r))]));
}

/**
 * The signed decisions about person `userId` made on the user detail (USER_STATUS, USER_ACCESS_EDIT: the
 * Signature rows of entity PortalUser), newest first, at most `limit`, verified and shown.
 */
export async function userSignatureViews(
  prisma: PrismaClient,
  userId: number,
  limit: number,
): Promise<SignatureView[]> {
  const rows = await prisma.signature.findMany({
    where: { entityType: ADMIN_SIGNED_ENTITIES.user, entityId: String(userId) },
    orderBy: { id: 'desc' },
    take: limit,
  });
  const views = await adminSignatureViews(prisma, rows);
  return rows.map((r) => views.get(r.id)!);
}
