/**
 * The signed content of the decisions the API writes itself (docs/decisions.md "Electronic signatures"): an
 * edit of a person's access or portal roles (USER_ACCESS_EDIT) and an activation or deactivation (USER_STATUS)
 * on the user detail, a reviewer's access review decisions (ACCESS_REVIEW_DECISION, a bulk decision one
 * signature naming every item) and a person's close of a campaign (CAMPAIGN_CLOSE). One builder per record,
 * used by the writer and by `verifyAdminSignatures`, which rebuilds the content from the rows as stored now: an
 * edit of a signed row afterwards shows `valid: false`.
 */
import type { Prisma, Signature, UserAccess } from '../../generated/client/client';
import { signatureMatches } from './verify';

type Db = Pick<Prisma.TransactionClient, 'userAccess' | 'accessReviewItem' | 'accessReviewCampaign' | 'portalUser'>;

/** The entity types of the signatures built here (AuditEvent's names). */
export const ADMIN_SIGNED_ENTITIES = { user: 'PortalUser', campaign: 'AccessReviewCampaign' } as const;

/** An access record version as signed: its id and version and the fields that say what it grants. */
export interface SignedAccess {
  id: number;
  versionno: number;
  roleName: string;
  siteCodes: string[];
  laoIds: string[];
  accessEndDate: string | null;
  /** The change removed the access (the record written is the removal's). */
  removed: boolean;
}

type AccessRow = Pick<UserAccess, 'id' | 'versionno' | 'roleName' | 'siteCodes' | 'laoIds' | 'accessEndDate'>;

/** The signed fields of access record `row` (`removed` from the change that wrote it). */
export function signedAccessOf(row: AccessRow, removed: boolean): SignedAccess {
  return {
    id: row.id,
    versionno: row.versionno,
    roleName: row.roleName,
    siteCodes: [...row.siteCodes].sort(),
    laoIds: [...row.laoIds].sort(),
    accessEndDate: row.accessEndDate ? row.accessEndDate.toISOString().slice(0, 10) : null,
    removed,
  };
}

/** USER_ACCESS_EDIT: the person, the access record versions the save wrote (by id) and their portal roles after it. */
export interface UserAccessEditContent {
  kind: 'USER_ACCESS_EDIT';
  userId: number;
  accesses: SignedAccess[];
  portalRoleIds: number[];
}

export function userAccessEditContent(userId: number, accesses: SignedAccess[], portalRoleIds: number[]) {
  return {
    kind: 'USER_ACCESS_EDIT',
    userId,
    accesses: [...accesses].sort((a, b) => a.id - b.id),
    portalRoleIds: [...new Set(portalRoleIds)].sort((a, b) => a - b),
  } satisfies UserAccessEditContent;
}

/** USER_STATUS: the person and their status after the decision. */
export const userStatusContent = (userId: number, inactive: boolean) =>
  ({ kind: 'USER_STATUS', userId, status: inactive ? 'INACTIVE' : 'ACTIVE' }) as const;

/** One item a reviewer's decision names: `applied` false when it was refused or its record changed (stale). */
export interface SignedReviewItem {
  itemId: number;
  accessId: number | null;
  applied: boolean;
}

/** ACCESS_REVIEW_DECISION: the campaign, the decision, its comment and time, and every item it names. */
export interface ReviewDecisionContent {
  kind: 'ACCESS_REVIEW_DECISION';
  campaignId: number;
  decision: string;
  comment: string | null;
  decidedAt: string;
  items: SignedReviewItem[];
}

export function reviewDecisionContent(c: Omit<ReviewDecisionContent, 'kind'>): ReviewDecisionContent {
  return { kind: 'ACCESS_REVIEW_DECISION', ...c, items: [...c.items].sort((a, b) => a.itemId - b.itemId) };
}

/** CAMPAIGN_CLOSE: the campaign, its name and who closed it (the row's closedByUsername). */
export const campaignCloseContent = (campaignId: number, name: string, closedByUsername: string | null) =>
  ({ kind: 'CAMPAIGN_CLOSE', campaignId, name, closedByUsername }) as const;

const ACCESS_SELECT = {
  id: true,
  versionno: true,
  roleName: true,
  siteCodes: true,
  laoIds: true,
  accessEndDate: true,
} as const;

type Content = Record<string, unknown> & { kind?: unknown };
const contentOf = (row: Pick<Signature, 'content'>): Content =>
  row.content && typeof row.content === 'object' && !Array.isArray(row.content) ? (row.content as Content) : {};
const ints = (values: unknown[]): number[] => [
  ...new Set(values.filter((v): v is number => typeof v === 'number' && Number.isInteger(v))),
];

/**
 * Whether each of `rows` (signatures built here) still matches its record, keyed by signature id. Reads the rows
 * the signatures name in one query per kind for all of them (a page's signatures: four queries at most):
 * - USER_ACCESS_EDIT: the access record versions by id (a version is never rewritten, so always comparable);
 *   the portal roles are not versioned (a later edit changes them lawfully), so they are compared only for the
 *   person's latest USER_ACCESS_EDIT signature among `rows`;
 * - USER_STATUS: the person's status, for their latest USER_STATUS signature among `rows`;
 * - ACCESS_REVIEW_DECISION: each applied item still decided at the signed time (`decidedAt`; a later decision
 *   of the item is a new version), its decision, comment and access record;
 * - CAMPAIGN_CLOSE: the campaign's name and closedByUsername.
 * Elsewhere only the stored content's digest is checked (`signatureMatches` without a recomputed content).
 */
export async function verifyAdminSignatures(db: Db, rows: Signature[]): Promise<Map<bigint, boolean>> {
  const of = (kind: string) => rows.filter((r) => contentOf(r).kind === kind);
  const edits = of('USER_ACCESS_EDIT');
  const statuses = of('USER_STATUS');
  const decisions = of('ACCESS_REVIEW_DECISION');
  const closes = of('CAMPAIGN_CLOSE');
  const latest = (list: Signature[]) => {
    const by = new Map<string, Signature>();
    for (const r of list) {
      const seen = by.get(r.entityId);
      if (!seen || seen.signedAt < r.signedAt || (seen.signedAt.getTime() === r.signedAt.getTime() && seen.id < r.id)) {
        by.set(r.entityId, r);
      }
    }
    return new Set([...by.values()].map((r) => r.id));
  };
  const latestEdit = latest(edits);
  const latestStatus = latest(statuses);
  const accessIds = ints(edits.flatMap((r) => ((contentOf(r).accesses as { id?: unknown }[]) ?? []).map((a) => a?.id)));
  const userIds = ints(
    rows.filter((r) => latestEdit.has(r.id) || latestStatus.has(r.id)).map((r) => Number(r.entityId)),
  );
  const itemIds = ints(
    decisions.flatMap((r) => ((contentOf(r).items as { itemId?: unknown }[]) ?? []).map((i) => i?.itemId)),
  );
  const campaignIds = ints(closes.map((r) => Number(r.entityId)));
  const [accesses, users, items, campaigns] = await Promise.all([
    accessIds.length ? db.userAccess.findMany({ where: { id: { in: accessIds } }, select: ACCESS_SELECT }) : [],
    userIds.length
      ? db.portalUser.findMany({
          where: { id: { in: userIds } },
          select: { id: true, inactive: true, portalRoles: { select: { portalRoleId: true } } },
        })
      : [],
    itemIds.length
      ? db.accessReviewItem.findMany({
          where: { id: { in: itemIds } },
          select: { id: true, accessId: true, decision: true, comment: true, decidedAt: true, decidedByUserId: true },
        })
      : [],
    campaignIds.length
      ? db.accessReviewCampaign.findMany({
          where: { id: { in: campaignIds } },
          select: { id: true, name: true, closedByUsername: true },
        })
      : [],
  ]);
  const accessById = new Map(accesses.map((a) => [a.id, a]));
  const userById = new Map(users.map((u) => [u.id, u]));
  const itemById = new Map(items.map((i) => [i.id, i]));
  const campaignById = new Map(campaigns.map((c) => [c.id, c]));

  const recompute = (row: Signature): unknown => {
    const c = contentOf(row);
    if (c.kind === 'USER_ACCESS_EDIT') {
      const signed = (c.accesses as SignedAccess[] | undefined) ?? [];
      const now = signed.map((a) => {
        const stored = accessById.get(a.id);
        return stored ? signedAccessOf(stored, a.removed) : { ...a, id: -a.id };
      });
      const user = latestEdit.has(row.id) ? userById.get(Number(row.entityId)) : undefined;
      const roles = user ? user.portalRoles.map((r) => r.portalRoleId) : ((c.portalRoleIds as number[]) ?? []);
      return userAccessEditContent(Number(c.userId), now, roles);
    }
    if (c.kind === 'USER_STATUS') {
      const user = latestStatus.has(row.id) ? userById.get(Number(row.entityId)) : undefined;
      return user ? userStatusContent(user.id, user.inactive) : undefined;
    }
    if (c.kind === 'ACCESS_REVIEW_DECISION') {
      const signed = (c.items as SignedReviewItem[] | undefined) ?? [];
      const items = signed.map((s) => {
        const item = itemById.get(s.itemId);
        const current =
          item && item.decidedAt?.toISOString() === c.decidedAt && item.decidedByUserId === row.signerUserId;
        // Decided again later (or never decided: refused): nothing of this decision left on the row to compare.
        if (!current) return s;
        return {
          itemId: item.id,
          accessId: item.accessId,
          applied: s.applied,
          decision: item.decision,
          comment: item.comment,
        };
      });
      // The signed decision and comment are compared on every item still at the signed version.
      const mismatch = items.some(
        (i) => 'decision' in i && (i.decision !== c.decision || (i.comment ?? null) !== (c.comment ?? null)),
      );
      const rebuilt = reviewDecisionContent({
        campaignId: Number(c.campaignId),
        decision: String(c.decision),
        comment: (c.comment as string | null) ?? null,
        decidedAt: String(c.decidedAt),
        items: items.map(({ itemId, accessId, applied }) => ({ itemId, accessId, applied })),
      });
      return mismatch ? { ...rebuilt, mismatch: true } : rebuilt;
    }
    if (c.kind === 'CAMPAIGN_CLOSE') {
      const campaign = campaignById.get(Number(row.entityId));
      return campaign ? campaignCloseContent(campaign.id, campaign.name, campaign.closedByUsername) : { missing: true };
    }
    return undefined;
  };
  return new Map(rows.map((r) => [r.id, signatureMatches(r, recompute(r))]));
}
