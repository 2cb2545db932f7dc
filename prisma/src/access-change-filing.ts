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
 * Reads and writes only: the caller commits, then starts `access-change-<id>` (rule 1).
 */
import {
  type AccessControl,
  type FieldErrors,
  RESOLVED_STATUSES,
  type RequestType,
  proxyComment,
  sameAccess,
} from '@portal/contract';
import type { AccessModRequest, PortalUser, Prisma } from '../generated/client/client';
import { lockFiling } from './locks';

type Tx = Prisma.TransactionClient;

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
  accessControls: AccessControl[];
  /** The requester's own comment; a proxy's is stored after the proxy marker. */
  requesterComments: string;
  /** `access-change-<id>` (the workflows package owns the id's format). */
  workflowIdOf(requestId: number): string;
};

export type FiledAccessChange = AccessModRequest & { subject: PortalUser; requester: PortalUser };

export type AccessChangeFilingResult =
  | { outcome: 'FILED'; requestType: RequestType; request: FiledAccessChange }
  /** REQUEST_IN_PROGRESS for a single request, 601 for a batch user. */
  | { outcome: 'OPEN_REQUEST' }
  | { outcome: 'INVALID'; fieldErrors: FieldErrors; requestType?: RequestType }
  | { outcome: 'NO_CHANGES'; requestType: RequestType };

const push = (errors: FieldErrors, key: string, reason: string) => (errors[key] ??= []).push(reason);

/**
 * Files one access-change request in the caller's transaction `tx` (see the module's rules).
 * @returns the filed row (with subject and requester) or the refusal. @throws when the subject does not exist
 *   (the caller checked it) or the database fails.
 */
export async function fileAccessChange(tx: Tx, filing: AccessChangeFiling): Promise<AccessChangeFilingResult> {
  await lockFiling(tx, 'ACCESS_CHANGE', filing.subjectUserId);
  const subject = await tx.portalUser.findUniqueOrThrow({ where: { id: filing.subjectUserId } });
  const roleNames = filing.accessControls.map((b) => b.roleName);
  // A batch's requests for this user's earlier blocks are its own, not an active request that skips the next.
  const ownBatch =
    filing.caller === 'PROXY_BATCH'
      ? await tx.proxyBatchItem.findMany({
          where: { batchId: filing.batchId, portalUserId: subject.id, accessModRequestId: { not: null } },
          select: { accessModRequestId: true },
        })
      : [];
  const open = await tx.accessModRequest.findMany({
    where: {
      subjectUserId: subject.id,
      requestStatus: { notIn: [...RESOLVED_STATUSES] },
      id: { notIn: ownBatch.map((i) => i.accessModRequestId!) },
    },
    select: { accessControls: true },
  });
  const openRoles = new Set(
    open.flatMap((o) => (o.accessControls as Array<{ roleName: string }>).map((c) => c.roleName)),
  );
  if (filing.caller === 'PROXY_BATCH' ? open.length > 0 : roleNames.some((r) => openRoles.has(r))) {
    return { outcome: 'OPEN_REQUEST' };
  }
  if (subject.inactive) return { outcome: 'INVALID', fieldErrors: { portalUserId: ['unknown'] } };

  const [held, activeRoles] = await Promise.all([
    tx.userAccess.findMany({ where: { portalUserId: subject.id, inactive: false }, orderBy: { id: 'asc' } }),
    tx.studyRole.findMany({ where: { roleName: { in: roleNames }, inactive: false }, select: { roleName: true } }),
  ]);
  const heldOf = (roleName: string) => held.find((a) => a.roleName === roleName);
  const requestType: RequestType =
    filing.caller === 'REQUEST' ? filing.requestType : heldOf(roleNames[0]!) ? 'CHANGE' : 'NEW';
  const fieldErrors: FieldErrors = {};
  const active = new Set(activeRoles.map((r) => r.roleName));
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

  const [{ id }] = await tx.$queryRaw<
    [{ id: bigint }]
  >`SELECT nextval(pg_get_serial_sequence('"AccessModRequest"', 'id')) AS id`;
  const requestId = Number(id);
  const workflowId = filing.workflowIdOf(requestId);
  const accessControls = filing.accessControls.map((b, i) => ({ ...b, questionNum: b.questionNum ?? i + 1 }));
  const subjectParty = { id: subject.id, name: `${subject.firstName} ${subject.lastName}`, email: subject.email };
  const request = await tx.accessModRequest.create({
    include: { subject: true, requester: true },
    data: {
      id: requestId,
      workflowId,
      requestType,
      requestStatus: 'NEW',
      subjectUserId: subject.id,
      requesterUserId: filing.requester.id,
      isProxyRequest: filing.proxy !== null,
      accessControls,
      existingUserAccessId: existing?.id ?? null,
      requesterComments: filing.proxy
        ? proxyComment(filing.proxy, subjectParty, filing.requesterComments).slice(0, 1024)
        : filing.requesterComments,
      lastModifiedBy: filing.requester.username,
    },
  });
  await tx.auditEvent.create({
    data: {
      actorUserId: filing.requester.id,
      actorUsername: filing.requester.username,
      entityType: 'AccessModRequest',
      entityId: String(requestId),
      action: 'CREATED',
      after: {
        requestType,
        requestStatus: 'NEW',
        accessControls,
        ...(filing.caller === 'PROXY_BATCH' ? { proxyBatchId: filing.batchId } : {}),
      },
      workflowId,
      idempotencyKey: `${workflowId}:0`,
    },
  });
  return { outcome: 'FILED', requestType, request };
}
