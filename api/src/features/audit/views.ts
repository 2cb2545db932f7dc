/** Maps audit rows to the contract's AuditEvent (the audit trail, /app/audit-trail). */
import type { AuditEvent } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { workflowUrl } from '../../shared/views';

/** The columns the audit trail shows (the commit's digest is bookkeeping, never shown). */
type AuditRow = Omit<Prisma.AuditEventGetPayload<object>, 'idempotencyDigest'>;

const NAME_FIELDS: Record<string, string> = {
  PortalRole: 'description',
  StudyRole: 'roleName',
  SystemAccess: 'systemName',
  SsoClient: 'clientId',
};

/** The record's name as the audit row's snapshots give it (role name, system name), or a numbered label. */
function auditEntityName(r: AuditRow): string | null {
  const field = NAME_FIELDS[r.entityType];
  for (const snapshot of field ? [r.after, r.before] : []) {
    const value = (snapshot as Record<string, unknown> | null)?.[field!];
    if (typeof value === 'string') return value;
  }
  if (r.entityType === 'AccessModRequest') return `Request #${r.entityId}`;
  if (r.entityType === 'UserAccess' || r.entityType === 'PortalUser') return `User #${r.entityId}`;
  return null;
}

/** An audit row on the wire, with the Temporal Web UI link of its workflow (if any). */
export function auditEventView(r: AuditRow, temporal: { uiUrl: string | undefined; namespace: string }): AuditEvent {
  return {
    id: r.id.toString(),
    at: r.at.toISOString(),
    actorUserId: r.actorUserId,
    actorUsername: r.actorUsername,
    entityType: r.entityType,
    entityId: r.entityId,
    entityName: auditEntityName(r),
    action: r.action,
    before: r.before ?? null,
    after: r.after ?? null,
    workflowId: r.workflowId,
    workflowUrl: r.workflowId ? workflowUrl(temporal.uiUrl, temporal.namespace, r.workflowId) : null,
  };
}
