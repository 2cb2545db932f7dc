import { z } from 'zod';
import { REQUEST_STATUS_LABELS, type RequestStatus } from './statuses';
import { PageQuerySchema } from './schemas';
import { textSchema } from './text';

/**
 * The audit trail (/app/audit-trail, 000 §2 Routes): who changed what, when, before and after. Rows are
 * written in the same transaction as the change (configuration, users, request transitions) and are never
 * edited or deleted.
 */

/** What an audit row is about. AccessModRequest rows carry the request's workflow id. */
export const AUDIT_ENTITY_TYPES = [
  'PortalRole',
  'StudyRole',
  'SystemAccess',
  'AccessModRequest',
  'UserAccess',
  'PortalUser',
  'SsoClient',
  'ResourceCategory',
  'DashboardItem',
  'AccessReview',
  'ProvisioningConnection',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_ENTITY_LABELS: Record<AuditEntityType, string> = {
  PortalRole: 'Portal role',
  StudyRole: 'Study role',
  SystemAccess: 'System',
  AccessModRequest: 'Access-change request',
  UserAccess: 'User access',
  PortalUser: 'User',
  SsoClient: 'Single sign-on client',
  ResourceCategory: 'Resource category',
  DashboardItem: 'Dashboard item',
  AccessReview: 'Access review campaign',
  ProvisioningConnection: 'Provisioning connection',
};

/** Actions written for configuration changes (requests: CREATED, STATUS_*, REVIEW_SAVED, APPLY_*, MAIL_SENT). */
export const CONFIG_AUDIT_ACTIONS = ['CREATED', 'UPDATED', 'ACTIVATED', 'DEACTIVATED'] as const;
export type ConfigAuditAction = (typeof CONFIG_AUDIT_ACTIONS)[number];

/** A readable label of an audit action code. */
export function auditActionLabel(action: string): string {
  if (action.startsWith('STATUS_')) {
    const status = action.slice('STATUS_'.length) as RequestStatus;
    return `Status set to ${REQUEST_STATUS_LABELS[status] ?? status}`;
  }
  if (action.startsWith('APPLY_')) return `Access applied (${action.slice('APPLY_'.length).toLowerCase()})`;
  const labels: Record<string, string> = {
    CREATED: 'Created',
    UPDATED: 'Updated',
    ACTIVATED: 'Activated',
    DEACTIVATED: 'Deactivated',
    REVIEW_SAVED: 'Review saved',
    MAIL_SENT: 'Resolution mail sent',
  };
  // Other codes (e.g. PASSWORD_CHANGED) read as a sentence: 'Password changed'.
  const words = action.toLowerCase().replace(/_/g, ' ');
  return labels[action] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

export const AuditEventSchema = z.object({
  /** The row id (a 64-bit sequence, sent as a string). */
  id: z.string(),
  at: z.string(),
  actorUserId: z.number().int().nullable(),
  actorUsername: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  /** The record's name at the time (role name, system name, request number), when known. */
  entityName: z.string().nullable(),
  action: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  workflowId: z.string().nullable(),
  /** Link to the request's workflow in the Temporal Web UI, when configured. */
  workflowUrl: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AUDIT_SORT_FIELDS = ['at', 'actorUsername', 'entityType', 'entityId', 'action'] as const;

const instant = z.iso.datetime({ offset: true });

/**
 * GET /rest/secure/audit_trail query: paging, sort `field,asc|desc`, and the filters actor (part of the
 * username), entityType, entityId and the date range from/to (ISO instants, inclusive). A range whose start
 * lies after its end answers 422 `from: ['afterEndDate'], to: ['beforeStartDate']` (000 §5 reasons).
 */
export const AuditQuerySchema = PageQuerySchema.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${AUDIT_SORT_FIELDS.join('|')})(,(asc|desc))?$`))
    .optional(),
  actor: textSchema(64).optional(),
  entityType: z.enum(AUDIT_ENTITY_TYPES).optional(),
  entityId: textSchema(64).optional(),
  from: instant.optional(),
  to: instant.optional(),
}).superRefine((q, ctx) => {
  if (q.from && q.to && Date.parse(q.from) > Date.parse(q.to)) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'afterEndDate' });
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'beforeStartDate' });
  }
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
