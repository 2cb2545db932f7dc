/**
 * The dashboard's wire contract (000 §2 /app/dashboard, §6 "portal roles also control dashboard visibility",
 * §7 Visualizations; issue 11 Dashboard): what the signed-in user's highest permission grants, the reviewers'
 * open queues by kind, status and age, the requester's open requests and latest decisions, and the two
 * Tableau calls (trusted ticket).
 */
import { z } from 'zod';
import { OpenStageSchema } from './approval-policies';
import { PERMISSIONS, type Permission } from './permissions';
import { USER_REQUEST_STATUSES, USER_REQUEST_TYPES } from './schemas';
import { REQUEST_TYPES } from './statuses';

/**
 * What each permission grants, as 000 §6 words it (the dashboard's "what you can do here" card). The
 * highest permission a user holds is the first of PERMISSIONS among their granted list (000 §6 "a user gets
 * the highest permission among their portal roles").
 */
export const PERMISSION_GRANTS: Record<Permission, string> = {
  ADMIN: 'All functionality, including configuration of portal roles, study roles and systems.',
  WRITE_USERS: 'Approve and deny registrations, review requests and modify users.',
  READ_USERS: 'View registrations, requests and users without changes.',
  USER: 'Dashboard access: request access and follow your requests.',
  SET_OWN_PASSWORD: 'Change your own password only.',
};

/** The highest of `granted` in PERMISSIONS order, or null when none is held. */
export function highestPermission(granted: readonly string[]): Permission | null {
  return PERMISSIONS.find((p) => granted.includes(p)) ?? null;
}

/** Age brackets of an open request (time since it was filed), oldest last; 3 days is the reviewers' reminder. */
export const QUEUE_AGE_BUCKETS = ['UNDER_1_DAY', 'DAYS_1_TO_3', 'DAYS_3_TO_7', 'OVER_7_DAYS'] as const;
export type QueueAgeBucket = (typeof QUEUE_AGE_BUCKETS)[number];
export const QUEUE_AGE_LABELS: Record<QueueAgeBucket, string> = {
  UNDER_1_DAY: 'Under 1 day',
  DAYS_1_TO_3: '1-3 days',
  DAYS_3_TO_7: '3-7 days',
  OVER_7_DAYS: 'Over 7 days',
};

/** One group of open requests: kind, status and age bracket with their number and the oldest filing time. */
export const QueueGroupSchema = z.object({
  userRequestType: z.enum(USER_REQUEST_TYPES),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  age: z.enum(QUEUE_AGE_BUCKETS),
  count: z.number().int(),
  oldest: z.iso.datetime(),
});
export type QueueGroup = z.infer<typeof QueueGroupSchema>;

/** GET /rest/secure/dashboard/queues (READ_USERS): every unresolved request of the queue, grouped. */
export const DashboardQueuesSchema = z.object({
  total: z.number().int(),
  groups: z.array(QueueGroupSchema),
});
export type DashboardQueues = z.infer<typeof DashboardQueuesSchema>;

/** One request the signed-in user filed or is the subject of, as the dashboard lists it. */
export const DashboardRequestSchema = z.object({
  userRequestType: z.enum(USER_REQUEST_TYPES),
  id: z.number().int(),
  requestType: z.enum(REQUEST_TYPES).nullable(),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  /** Filed (sysdat) and last changed (dchng), ISO. */
  dateSubmitted: z.iso.datetime(),
  lastModified: z.iso.datetime(),
  /** Whom the request is about ('First Last'), for proxy requests and registrations filed for others. */
  subjectName: z.string(),
  /**
   * An access-change request's open approval stage (docs/decisions.md "Approval policies"), shown under its
   * status; absent when none is open.
   */
  openStage: OpenStageSchema.optional(),
});
export type DashboardRequest = z.infer<typeof DashboardRequestSchema>;

/** How many of the latest decisions the dashboard shows. */
export const DASHBOARD_DECISIONS = 5;

/** GET /rest/secure/dashboard/requests (USER): the user's open requests and latest decisions. */
export const DashboardRequestsSchema = z.object({
  open: z.array(DashboardRequestSchema),
  decisions: z.array(DashboardRequestSchema),
});
export type DashboardRequests = z.infer<typeof DashboardRequestsSchema>;

/**
 * GET /rest/secure/dashboard/summary (any signed-in user): the highest permission, what it grants, the
 * sections the permissions show (000 §6) and the ids of the visualizations the user may see (empty when no
 * Tableau server is configured: the section is hidden).
 */
export const DashboardSummarySchema = z.object({
  highestPermission: z.enum(PERMISSIONS).nullable(),
  permissions: z.array(z.enum(PERMISSIONS)),
  grants: z.array(z.string()),
  sections: z.object({ ownRequests: z.boolean(), queues: z.boolean() }),
  visualizationIds: z.array(z.number().int()),
});
export type DashboardSummary = z.infer<typeof DashboardSummarySchema>;

/** GET /rest/secure/tableau/token query (000 §7): targetSite, default the configured project site. */
export const TableauTokenQuerySchema = z.object({
  targetSite: z
    .string()
    .trim()
    .max(128)
    .regex(/^[A-Za-z0-9_-]*$/, { message: 'invalid' })
    .optional(),
});

/** GET /rest/secure/tableau/token answer (000 §7). */
export const TableauTokenSchema = z.object({
  tableauToken: z.string(),
  tableauInternalIp: z.string(),
  tableauExternalUrl: z.string(),
  targetSite: z.string(),
});
export type TableauToken = z.infer<typeof TableauTokenSchema>;

/** GET /rest/secure/tableau/visualization/{id} answer (000 §3 Visualization, §7). */
export const VisualizationSchema = z.object({
  id: z.number().int(),
  filePath: z.string(),
  title: z.string(),
  description: z.string(),
  tableauSite: z.string(),
});
export type Visualization = z.infer<typeof VisualizationSchema>;

/** Dashboard texts the spec does not word (decision, docs/decisions.md), in its style. */
export const DASHBOARD_MESSAGES = {
  loadQueuesFailed: 'Problem loading user requests.',
  loadRequestsFailed: 'Problem loading your requests.',
  loadSummaryFailed: 'Problem loading the dashboard.',
  visualizationFailed: 'Problem loading the visualization.',
  visualizationNotFound: 'Unable to load the specified visualization.',
  tableauUnavailable: 'Unable to reach the analytics server.',
} as const;

/** 000 §9 Visualization polling: every 1000 ms, up to 10 tries. */
export const VISUALIZATION_POLL = { everyMs: 1000, tries: 10 } as const;
