/**
 * Why does this person have this access (issue 25): GET /rest/secure/user_access/user/{id}/provenance. For
 * each ACTIVE access record of the person, the events of its version chain (the versions sharing
 * `originalRevisionNumber`, the chain's first id), oldest first, read from the audit trail in ONE statement on
 * the (entityType, entityId) index (`provenanceAuditSql`): no second store. Each writer's audit row names the
 * record ids it wrote, which is how a row is matched to a chain:
 * - UserAccess ACCESS_CREATED / ACCESS_UPDATED / ACCESS_REMOVED / ACCESS_REPLACED `after.changes[]`
 *   ({priorId, newId, inactive}): with `after.requestId` the review of that access-change request (REQUEST,
 *   PROXY_BATCH when a proxy batch filed it), without it the Access tab's admin edit (ADMIN_EDIT);
 * - PortalUser USER_CREATED `after.access[].id`: the approval of the registration (REGISTRATION);
 * - UserAccess ACCESS_EXPIRED `after.{priorId,newId}` (EXPIRY);
 * - UserAccess ACCESS_REVIEW_DECIDED / ACCESS_KEPT_BY_REVIEW / ACCESS_REMOVED_BY_REVIEW `after.accessId`
 *   (CAMPAIGN).
 * A version no audit row wrote (the seed, rows older than the audit trail) gets one event from the record
 * itself (createdBy, sysdat), source OTHER, 'Granted (no audit row)' / 'Changed (no audit row)'.
 * With SIGNATURES=on each event carries `signatures` (one more statement for the whole answer, plus the
 * verification's reads; `eventSignatures`): a request's signed save naming the version it wrote (a registration:
 * its signed approval), an admin edit's USER_ACCESS_EDIT naming the version it wrote, a
 * reviewer's ACCESS_REVIEW_DECISION naming the record at the event's time, and for a campaign's outcome (the
 * system's act) the CAMPAIGN_CLOSE of the person who closed it.
 * Who may read it: the person themself, READ_USERS, or a reviewer of an open campaign item of the person
 * (`reviewsPerson`); anyone else 403; an unknown person 404 (after the permission check, so a stranger learns
 * nothing of who exists).
 */
import {
  type AccessProvenance,
  type ProvenanceEvent,
  type ProvenanceSource,
  type SignatureView,
  USER_ACCESS_MESSAGES,
} from '@portal/contract';
import { ADMIN_SIGNED_ENTITIES, Prisma, type PrismaClient, type Signature, requestSignatureViews } from '@portal/db';
import { z } from 'zod';
import type { AuthContext } from '../../auth/guard';
import { forbidden, notFound } from '../../http/errors';
import { reviewsPerson } from '../../shared/access-review-authority';
import { adminSignatureViews } from '../../shared/signature-views';

/** The audit actions of access records a writer of the chain wrote (a version each change names). */
const CHANGE_ACTIONS = ['ACCESS_CREATED', 'ACCESS_UPDATED', 'ACCESS_REMOVED', 'ACCESS_REPLACED'];
const CAMPAIGN_LABELS: Record<string, string> = {
  ACCESS_REVIEW_DECIDED: 'Reviewed',
  ACCESS_KEPT_BY_REVIEW: 'Kept by review',
  ACCESS_REMOVED_BY_REVIEW: 'Removed by review',
};

/**
 * The one statement of the audit trail: the person's access rows and the approval of their registration,
 * oldest first. Two branches, each an equality on both columns of the (entityType, entityId) index, so the
 * rows of other kinds that share the id (requests, registrations of that number) are never read.
 * Exported for the plan's test.
 */
export const provenanceAuditSql = (portalUserId: number): Prisma.Sql => Prisma.sql`
  SELECT e.id, e.at, e."actorUsername", e.action, e.after, e."workflowId"
    FROM "AuditEvent" e
   WHERE e."entityType" = 'UserAccess' AND e."entityId" = ${String(portalUserId)}
  UNION ALL
  SELECT e.id, e.at, e."actorUsername", e.action, e.after, e."workflowId"
    FROM "AuditEvent" e
   WHERE e."entityType" = 'PortalUser' AND e."entityId" = ${String(portalUserId)} AND e.action = 'USER_CREATED'
   ORDER BY at, id`;

interface AuditRow {
  id: bigint;
  at: Date;
  actorUsername: string;
  action: string;
  after: unknown;
  workflowId: string | null;
}

const Id = z.number().int();
const ChangesAfter = z.object({
  requestId: Id.optional(),
  changes: z.array(z.object({ priorId: Id.nullable(), newId: Id, inactive: z.boolean() })),
});
const UserCreatedAfter = z.object({ registrationId: Id, access: z.array(z.object({ id: Id })) });
const ExpiredAfter = z.object({ newId: Id, priorId: Id, accessEndDate: z.string() });
const CampaignAfter = z.object({
  accessId: Id,
  campaignId: Id,
  campaignName: z.string().optional(),
  decision: z.string().optional(),
  comment: z.string().nullish(),
  /** The campaign's default decision for an item nobody decided (the outcome rows at close). */
  defaulted: z.boolean().optional(),
});

/** The request an event names, as the requests table holds it: filed by a proxy batch, the reviewer's comment. */
interface RequestFacts {
  batchId: number | null;
  reviewerComments: string;
}

/** An event and the record version it is about; `writes` when the row wrote that version. */
interface Attached {
  recordId: number;
  writes: boolean;
  event: ProvenanceEvent;
  /** The audit row's action (how its signature is found). */
  action?: string;
}

const blank = (at: Date, actorUsername: string, workflowId: string | null) => ({
  at: at.toISOString(),
  actorUsername,
  requestId: null,
  batchId: null,
  campaignId: null,
  campaignName: null,
  workflowId,
  comment: null,
});

/** REQUEST, or PROXY_BATCH with its batch when a proxy batch filed request `requestId`. */
function requestSource(requestId: number | null, requests: ReadonlyMap<number, RequestFacts>) {
  const facts = requestId === null ? undefined : requests.get(requestId);
  const source: ProvenanceSource = facts?.batchId != null ? 'PROXY_BATCH' : 'REQUEST';
  return { source, requestId, batchId: facts?.batchId ?? null, comment: facts?.reviewerComments || null };
}

/** The events one audit row tells, each attached to the record version it is about (none for other rows). */
export function eventsOfRow(row: AuditRow, requests: ReadonlyMap<number, RequestFacts>): Attached[] {
  const base = blank(row.at, row.actorUsername, row.workflowId);
  if (CHANGE_ACTIONS.includes(row.action)) {
    const after = ChangesAfter.safeParse(row.after);
    if (!after.success) return [];
    const from =
      after.data.requestId === undefined
        ? { source: 'ADMIN_EDIT' as const }
        : requestSource(after.data.requestId, requests);
    return after.data.changes.map((c) => ({
      recordId: c.newId,
      writes: true,
      action: row.action,
      event: { ...base, ...from, label: c.priorId === null ? 'Granted' : c.inactive ? 'Removed' : 'Changed' },
    }));
  }
  if (row.action === 'USER_CREATED') {
    const after = UserCreatedAfter.safeParse(row.after);
    if (!after.success) return [];
    const event = { ...base, label: 'Granted', source: 'REGISTRATION' as const, requestId: after.data.registrationId };
    return after.data.access.map((a) => ({ recordId: a.id, writes: true, event }));
  }
  if (row.action === 'ACCESS_EXPIRED') {
    const after = ExpiredAfter.safeParse(row.after);
    if (!after.success) return [];
    const comment = `The access ended on ${after.data.accessEndDate}.`;
    return [
      { recordId: after.data.newId, writes: true, event: { ...base, label: 'Expired', source: 'EXPIRY', comment } },
    ];
  }
  const label = CAMPAIGN_LABELS[row.action];
  if (label) {
    const after = CampaignAfter.safeParse(row.after);
    if (!after.success) return [];
    const decided = after.data.decision ? `${label}: ${after.data.decision.toLowerCase()}` : label;
    const outcome = after.data.defaulted ? `${label} (the campaign's default)` : label;
    const event: ProvenanceEvent = {
      ...base,
      label: row.action === 'ACCESS_REVIEW_DECIDED' ? decided : outcome,
      source: 'CAMPAIGN',
      campaignId: after.data.campaignId,
      campaignName: after.data.campaignName ?? null,
      comment: after.data.comment || null,
    };
    return [{ recordId: after.data.accessId, writes: false, event, action: row.action }];
  }
  return [];
}

/** The requests the rows and records name: filed by a proxy batch (its batch) and the reviewer's comment. */
async function requestFacts(prisma: PrismaClient, ids: readonly number[]): Promise<Map<number, RequestFacts>> {
  if (!ids.length) return new Map();
  const rows = await prisma.$queryRaw<{ id: number; batchId: number | null; reviewerComments: string }[]>`
    SELECT r.id, CASE WHEN r."isProxyRequest" THEN b."batchId" END AS "batchId", r."reviewerComments"
      FROM "AccessModRequest" r LEFT JOIN "ProxyBatchItem" b ON b."accessModRequestId" = r.id
     WHERE r.id = ANY(${[...ids]}::int[])`;
  return new Map(rows.map((r) => [r.id, { batchId: r.batchId, reviewerComments: r.reviewerComments }]));
}

/** The request ids an audit row names (`after.requestId` of a review's write). */
const requestIdOf = (row: AuditRow): number[] => {
  const id = (row.after as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'number' && Number.isInteger(id) ? [id] : [];
};

type RecordRow = Prisma.UserAccessGetPayload<{
  select: {
    id: true;
    roleName: true;
    inactive: true;
    versionno: true;
    originalRevisionNumber: true;
    sourceRequestId: true;
    createdBy: true;
    sysdat: true;
  };
}>;

/** The event of a version no audit row wrote, from the record itself. */
function fromRecord(r: RecordRow, requests: ReadonlyMap<number, RequestFacts>): ProvenanceEvent {
  const label = r.versionno === 1 ? 'Granted (no audit row)' : 'Changed (no audit row)';
  const named = r.sourceRequestId === null ? null : requestSource(r.sourceRequestId, requests);
  return { ...blank(r.sysdat, r.createdBy, null), ...named, label, source: 'OTHER' };
}

/** The signatures the person's events may carry (module note), in one statement, oldest first. */
const provenanceSignaturesSql = (portalUserId: number, campaignIds: string[], accessIds: number[]) => Prisma.sql`
  SELECT s.* FROM "Signature" s
   WHERE (s."entityType" = ${ADMIN_SIGNED_ENTITIES.user} AND s."entityId" = ${String(portalUserId)}
          AND s.action = 'USER_ACCESS_EDIT')
      OR (s."entityType" = ${ADMIN_SIGNED_ENTITIES.campaign} AND s."entityId" = ANY(${campaignIds}::text[])
          AND (s.action = 'CAMPAIGN_CLOSE'
               OR (s.action = 'ACCESS_REVIEW_DECISION' AND EXISTS (
                     SELECT 1 FROM jsonb_array_elements(s.content->'items') it
                      WHERE (it->>'accessId')::int = ANY(${accessIds}::int[])))))
   ORDER BY s."signedAt", s.id`;

type Content = { accesses?: { id?: number }[]; items?: { accessId?: number | null }[]; decidedAt?: string };

/** Gives each attached event the signatures that sign it (module note). */
async function eventSignatures(prisma: PrismaClient, portalUserId: number, attached: Attached[]): Promise<void> {
  const campaignIds = [...new Set(attached.flatMap((a) => (a.event.campaignId === null ? [] : [a.event.campaignId])))];
  const accessIds = [...new Set(attached.map((a) => a.recordId))];
  const rows = await prisma.$queryRaw<Signature[]>(
    provenanceSignaturesSql(portalUserId, campaignIds.map(String), accessIds),
  );
  const views = await adminSignatureViews(prisma, rows);
  const content = (r: Signature) => (r.content ?? {}) as Content;
  const signs = (a: Attached, r: Signature): boolean => {
    if (r.action === 'USER_ACCESS_EDIT') {
      return a.event.source === 'ADMIN_EDIT' && (content(r).accesses ?? []).some((x) => x.id === a.recordId);
    }
    if (String(a.event.campaignId) !== r.entityId) return false;
    if (r.action === 'ACCESS_REVIEW_DECISION') {
      return (
        a.action === 'ACCESS_REVIEW_DECIDED' &&
        content(r).decidedAt === a.event.at &&
        (content(r).items ?? []).some((x) => x.accessId === a.recordId)
      );
    }
    return r.action === 'CAMPAIGN_CLOSE' && a.action !== 'ACCESS_REVIEW_DECIDED';
  };
  const fromRequests = await requestEventSignatures(prisma, attached);
  for (const a of attached) {
    a.event.signatures = [...rows.filter((r) => signs(a, r)).map((r) => views.get(r.id)!), ...fromRequests(a)];
  }
}

/**
 * The signatures of the request decisions behind the events (module note): of an access-change request (its
 * own or a proxy batch's), the signed saves whose content names the event's record; of a registration, its
 * signed approval. Verified as the request's own views verify them (`requestSignatureViews`): three or four
 * statements for the whole answer. @returns a lookup per attached event.
 */
async function requestEventSignatures(
  prisma: PrismaClient,
  attached: Attached[],
): Promise<(a: Attached) => SignatureView[]> {
  const idsOf = (sources: ProvenanceSource[]) => [
    ...new Set(
      attached.flatMap((a) =>
        sources.includes(a.event.source) && a.event.requestId !== null ? [a.event.requestId] : [],
      ),
    ),
  ];
  const requestIds = idsOf(['REQUEST', 'PROXY_BATCH']);
  const registrationIds = idsOf(['REGISTRATION']);
  const [requests, registrations, signed] = await Promise.all([
    prisma.accessModRequest.findMany({ where: { id: { in: requestIds } }, select: { id: true, versionno: true } }),
    prisma.registration.findMany({ where: { id: { in: registrationIds } }, select: { id: true, versionno: true } }),
    prisma.signature.findMany({
      where: { entityType: 'AccessModRequest', entityId: { in: requestIds.map(String) } },
      select: { id: true, content: true },
    }),
  ]);
  const [requestViews, registrationViews] = await Promise.all([
    requestSignatureViews(prisma, 'AccessModRequest', requests),
    requestSignatureViews(prisma, 'Registration', registrations),
  ]);
  const recordsOf = new Map(
    signed.map((s) => {
      const records = (s.content as { accessRecords?: { id?: unknown }[] } | null)?.accessRecords;
      return [s.id.toString(), new Set(Array.isArray(records) ? records.map((r) => r?.id) : [])];
    }),
  );
  return (a) => {
    const id = a.event.requestId;
    if (id === null) return [];
    if (a.event.source === 'REGISTRATION') return registrationViews.get(id) ?? [];
    if (a.event.source !== 'REQUEST' && a.event.source !== 'PROXY_BATCH') return [];
    return (requestViews.get(id) ?? []).filter((v) => recordsOf.get(v.id)?.has(a.recordId));
  };
}

/**
 * The provenance of `portalUserId`'s active access records, by study role. Reads the person's record
 * versions, the audit trail (one statement) and the requests they name.
 * @throws HttpError 404 when there is no such person.
 */
export async function accessProvenanceOf(
  prisma: PrismaClient,
  portalUserId: number,
  opts: { signatures: boolean } = { signatures: false },
): Promise<AccessProvenance> {
  const [user, records, rows] = await Promise.all([
    prisma.portalUser.findUnique({ where: { id: portalUserId }, select: { id: true } }),
    prisma.userAccess.findMany({
      where: { portalUserId },
      select: {
        id: true,
        roleName: true,
        inactive: true,
        versionno: true,
        originalRevisionNumber: true,
        sourceRequestId: true,
        createdBy: true,
        sysdat: true,
      },
      orderBy: { id: 'asc' },
    }),
    prisma.$queryRaw<AuditRow[]>(provenanceAuditSql(portalUserId)),
  ]);
  if (!user) throw notFound(USER_ACCESS_MESSAGES.loadUserAccessFailed);
  const requestIds = new Set([
    ...rows.flatMap(requestIdOf),
    ...records.flatMap((r) => (r.sourceRequestId === null ? [] : [r.sourceRequestId])),
  ]);
  const requests = await requestFacts(prisma, [...requestIds]);
  const byRecord = new Map<number, Attached[]>();
  const all = rows.flatMap((row) => eventsOfRow(row, requests));
  // Events are shared objects (one audit row may name several versions): each gets its own signatures list.
  for (const a of all) a.event = { ...a.event };
  if (opts.signatures) await eventSignatures(prisma, portalUserId, all);
  for (const attached of all) {
    byRecord.set(attached.recordId, [...(byRecord.get(attached.recordId) ?? []), attached]);
  }
  const rootOf = (r: RecordRow) => r.originalRevisionNumber ?? r.id;
  const chains = new Map<number, RecordRow[]>();
  for (const r of records) chains.set(rootOf(r), [...(chains.get(rootOf(r)) ?? []), r]);
  const active = records.filter((r) => !r.inactive).sort((a, b) => a.roleName.localeCompare(b.roleName));
  return {
    records: active.map((record) => {
      const chain = (chains.get(rootOf(record)) ?? [record]).sort((a, b) => a.versionno - b.versionno);
      const events = chain.flatMap((version) => {
        const attached = byRecord.get(version.id) ?? [];
        const own = opts.signatures ? { signatures: [] as SignatureView[] } : {};
        const written = attached.some((a) => a.writes) ? [] : [{ ...fromRecord(version, requests), ...own }];
        return [...written, ...attached.map((a) => a.event)];
      });
      // Stable: events of one instant keep the chain's and the audit trail's order.
      events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
      return { accessId: record.id, roleName: record.roleName, events };
    }),
  };
}

/**
 * The provenance route's permission (issue 25): the person themself, READ_USERS, or a reviewer of an open
 * campaign item of theirs (`reviewsPerson` with the reviewer study role of the API's configuration).
 * @throws HttpError 403 for anyone else.
 */
export async function assertMayReadProvenance(
  prisma: PrismaClient,
  studyRole: string,
  actor: AuthContext,
  portalUserId: number,
): Promise<void> {
  if (actor.userId === portalUserId || actor.permissions.includes('READ_USERS')) return;
  if (await reviewsPerson(prisma, studyRole, actor, portalUserId)) return;
  throw forbidden();
}
