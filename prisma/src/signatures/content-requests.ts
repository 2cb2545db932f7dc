/**
 * What a request decision's signature is of (docs/decisions.md "Electronic signatures", §11.70): the canonical
 * content of a reviewer's signed save of any request kind, built by ONE builder (`requestDecisionContent`) that
 * the worker's commit uses to write the signature and the reads use to verify it, and the set-based reads of a
 * page of requests' signatures (`requestSignatureViews`: one query for the signatures, one per kind for the
 * records still at their signed version, never one per row).
 */
import type { SignatureView } from '@portal/contract';
import type { Prisma, Signature } from '../../generated/client/client';
import { signatureMatches, signatureView } from './verify';

type Db = Pick<
  Prisma.TransactionClient,
  'accessModRequest' | 'profileChangeRequest' | 'registration' | 'userAccess' | 'signature' | 'portalUserRole'
>;

/** The request kinds' entity types (AuditEvent's and Signature's names). */
export const REQUEST_ENTITY_TYPES = ['AccessModRequest', 'ProfileChangeRequest', 'Registration'] as const;
export type RequestEntityType = (typeof REQUEST_ENTITY_TYPES)[number];

/** One access record a save wrote, by its key fields (`removal`: the version that ended its chain). */
export interface SignedAccessRecord {
  id: number;
  versionno: number;
  roleName: string;
  siteCodes: string[];
  laoIds: string[];
  studyNames: string[];
  systemAccessIds: number[];
  accessEndDate: string | null;
  removal: boolean;
}

/** The facts of a request decision, as stored (see `loadRequestDecisions`). */
export interface RequestDecisionFacts {
  kind: RequestEntityType;
  requestId: number;
  /** The request's versionno after the save. */
  version: number;
  status: string;
  reviewerComments: string;
  sysaidTicket: string;
  /** The subject's access records written under this request (access changes; else none), by id. */
  accessRecords: SignedAccessRecord[];
  /**
   * The portal role ids the decision left: a registration's chosen roles (stored on the row), otherwise the
   * subject's roles at the signature (portal roles carry no versions, so a later decision may change them: a
   * verification takes them from the signed content, see `requestSignatureViews`).
   */
  portalRoleIds: number[];
  /** The kind's own decided fields: a profile change's name and email, a registration's username and user. */
  details: Record<string, string | number | null>;
}

/** The canonical content of a request decision (what is stored and digested). */
export function requestDecisionContent(f: RequestDecisionFacts): Record<string, unknown> {
  return {
    kind: f.kind,
    requestId: f.requestId,
    version: f.version,
    status: f.status,
    reviewerComments: f.reviewerComments,
    sysaidTicket: f.sysaidTicket,
    accessRecords: [...f.accessRecords].sort((a, b) => a.id - b.id),
    portalRoleIds: [...new Set(f.portalRoleIds)].sort((a, b) => a - b),
    details: f.details,
  };
}

const day = (d: Date | null): string | null => (d ? d.toISOString().slice(0, 10) : null);
const sorted = <T>(xs: T[]): T[] => [...xs].sort();

/**
 * The stored facts of requests `ids` of `kind` (set-based: one query per table), keyed by request id. The
 * access records are those written under the request (`sourceRequestId`): a version that was later replaced is
 * inactive with a successor and still not a removal, so a later decision does not change what was signed.
 * `portalRoleIds` of a kind other than a registration are the subject's current roles.
 */
export async function loadRequestDecisions(
  db: Db,
  kind: RequestEntityType,
  ids: number[],
): Promise<Map<number, RequestDecisionFacts>> {
  const out = new Map<number, RequestDecisionFacts>();
  if (ids.length === 0) return out;
  const base = (r: { id: number; versionno: number; reviewerComments: string; sysaidTicket: string }) => ({
    kind,
    requestId: r.id,
    version: r.versionno,
    reviewerComments: r.reviewerComments,
    sysaidTicket: r.sysaidTicket,
  });
  if (kind === 'AccessModRequest') {
    const rows = await db.accessModRequest.findMany({ where: { id: { in: ids } } });
    const records = await db.userAccess.findMany({ where: { sourceRequestId: { in: ids } } });
    const successors = new Set(
      (
        await db.userAccess.findMany({
          where: { priorAccessControlId: { in: records.map((r) => r.id) } },
          select: { priorAccessControlId: true },
        })
      ).map((r) => r.priorAccessControlId),
    );
    const roles = await db.portalUserRole.findMany({
      where: { portalUserId: { in: rows.map((r) => r.subjectUserId) } },
      select: { portalUserId: true, portalRoleId: true },
    });
    for (const r of rows) {
      out.set(r.id, {
        ...base(r),
        status: r.requestStatus,
        accessRecords: records
          .filter((a) => a.sourceRequestId === r.id)
          .map((a) => ({
            id: a.id,
            versionno: a.versionno,
            roleName: a.roleName,
            siteCodes: sorted(a.siteCodes),
            laoIds: sorted(a.laoIds),
            studyNames: sorted(a.studyNames),
            systemAccessIds: [...a.systemAccessIds].sort((x, y) => x - y),
            accessEndDate: day(a.accessEndDate),
            removal: a.inactive && !successors.has(a.id),
          })),
        portalRoleIds: roles.filter((p) => p.portalUserId === r.subjectUserId).map((p) => p.portalRoleId),
        details: { subjectUserId: r.subjectUserId },
      });
    }
  } else if (kind === 'ProfileChangeRequest') {
    const rows = await db.profileChangeRequest.findMany({ where: { id: { in: ids } } });
    const roles = await db.portalUserRole.findMany({
      where: { portalUserId: { in: rows.map((r) => r.portalUserId) } },
      select: { portalUserId: true, portalRoleId: true },
    });
    for (const r of rows) {
      out.set(r.id, {
        ...base(r),
        status: r.requestStatus,
        accessRecords: [],
        portalRoleIds: roles.filter((p) => p.portalUserId === r.portalUserId).map((p) => p.portalRoleId),
        details: { subjectUserId: r.portalUserId, firstName: r.firstName, lastName: r.lastName, email: r.email },
      });
    }
  } else {
    const rows = await db.registration.findMany({ where: { id: { in: ids } } });
    for (const r of rows) {
      out.set(r.id, {
        ...base(r),
        status: r.registrationStatus,
        accessRecords: [],
        portalRoleIds: r.portalRoleIds,
        details: { portalUserId: r.portalUserId, username: r.username, email: r.email },
      });
    }
  }
  return out;
}

/** A request as a page of views holds it: its id and its current version. */
export interface RequestVersion {
  id: number;
  versionno: number;
}

/**
 * The signatures of a page of requests of `kind`, oldest first per request, each verified (§11.70): while the
 * request is still at the signed version, its content is rebuilt from the stored records by
 * `requestDecisionContent` (a registration's portal roles from its row; another kind's from the signed content,
 * see `RequestDecisionFacts.portalRoleIds`) and must equal the signed content; once later saves moved it on,
 * only the stored content is checked against its digest. Two or three queries for the whole page.
 */
export async function requestSignatureViews(
  db: Db,
  kind: RequestEntityType,
  rows: RequestVersion[],
): Promise<Map<number, SignatureView[]>> {
  const out = new Map<number, SignatureView[]>();
  if (rows.length === 0) return out;
  const signatures = await db.signature.findMany({
    where: { entityType: kind, entityId: { in: rows.map((r) => String(r.id)) } },
    orderBy: [{ signedAt: 'asc' }, { id: 'asc' }],
  });
  if (signatures.length === 0) return out;
  const versionOf = new Map(rows.map((r) => [r.id, r.versionno]));
  const current = (s: Signature) => s.entityVersion !== null && versionOf.get(Number(s.entityId)) === s.entityVersion;
  const facts = await loadRequestDecisions(db, kind, [
    ...new Set(signatures.filter(current).map((s) => Number(s.entityId))),
  ]);
  for (const s of signatures) {
    const id = Number(s.entityId);
    const f = current(s) ? facts.get(id) : undefined;
    const recomputed = f
      ? requestDecisionContent({ ...f, portalRoleIds: kind === 'Registration' ? f.portalRoleIds : signedRoles(s) })
      : undefined;
    const list = out.get(id) ?? [];
    list.push(signatureView(s, signatureMatches(s, recomputed)));
    out.set(id, list);
  }
  return out;
}

/** The portal role ids a signed request content names. */
const signedRoles = (s: Signature): number[] => {
  const c = s.content as { portalRoleIds?: unknown } | null;
  return Array.isArray(c?.portalRoleIds) ? c.portalRoleIds.filter((v): v is number => typeof v === 'number') : [];
};
