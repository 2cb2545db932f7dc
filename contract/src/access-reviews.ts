/**
 * Access review campaigns (recertification; issue 25 "Access review campaigns"), designed in the spec's style
 * (000 §5 field errors, 000 §3 pages). An ADMIN creates a campaign, once or recurring; it runs as the workflow
 * `access-review-<id>`: it snapshots the access records in its scope into review items, the reviewers decide
 * each item Keep or Remove until its deadline, and at close the default is applied to undecided items and every
 * Remove is carried out through the one access-records writer.
 *
 * Who reviews an item: with LAO_STAFF, the holders of the reviewer study role (ACCESS_REVIEW_STUDY_ROLE,
 * default 'LAO Staff') for any LAO of the record (never the record's own person), and User Support
 * (WRITE_USERS) for records with no LAO; with USER_SUPPORT, User Support only. User Support may decide every
 * item of every campaign. Deciding in a campaign is the only authority the reviewer study role gives.
 *
 * Routes (api/src/features/access-reviews):
 * - reviewer: GET  /rest/secure/access_review/mine, GET /rest/secure/access_review/items,
 *             POST /rest/secure/access_review/decisions
 * - ADMIN:    GET/POST /rest/secure/system_mgmt/access_reviews, GET .../access_reviews/{id},
 *             POST .../access_reviews/{id}/close, POST .../access_reviews/{id}/cancel,
 *             GET .../access_reviews/{id}/decisions.csv,
 *             GET/POST /rest/secure/system_mgmt/access_review_schedules, POST .../access_review_schedules/{id}/deactivate
 * - provenance: GET /rest/secure/user_access/user/{id}/provenance (self, READ_USERS, or a reviewer of an open
 *             item of that person)
 * Pure module: the API, the worker and the browser share it.
 */
import { z } from 'zod';
import { BodyIdSchema, queryIntSchema } from './ids';
import { textSchema } from './text';
import { SignatureViewSchema } from './signatures';

export const ACCESS_REVIEW_STATUSES = ['STARTING', 'OPEN', 'CLOSING', 'CLOSED', 'CANCELLED'] as const;
export type AccessReviewStatus = (typeof ACCESS_REVIEW_STATUSES)[number];
export const ACCESS_REVIEW_STATUS_LABELS: Record<AccessReviewStatus, string> = {
  STARTING: 'Starting',
  OPEN: 'Open',
  CLOSING: 'Closing',
  CLOSED: 'Closed',
  CANCELLED: 'Cancelled',
};

export const ACCESS_REVIEW_REVIEWERS = ['LAO_STAFF', 'USER_SUPPORT'] as const;
export type AccessReviewReviewers = (typeof ACCESS_REVIEW_REVIEWERS)[number];
export const ACCESS_REVIEW_REVIEWER_LABELS: Record<AccessReviewReviewers, string> = {
  LAO_STAFF: "LAO staff of the record's LAOs, its AOs' LAOs included (User Support for records without one)",
  USER_SUPPORT: 'User Support only',
};

export const ACCESS_REVIEW_DECISIONS = ['KEEP', 'REMOVE'] as const;
export type AccessReviewDecision = (typeof ACCESS_REVIEW_DECISIONS)[number];

export const ACCESS_REVIEW_OUTCOMES = ['KEPT', 'REMOVED', 'CHANGED'] as const;
export type AccessReviewOutcome = (typeof ACCESS_REVIEW_OUTCOMES)[number];

/** The pool name of items reviewed by User Support (no LAO, or a USER_SUPPORT campaign). */
export const USER_SUPPORT_POOL = 'User Support';

export const ACCESS_REVIEW_LIMITS = {
  name: 128,
  comment: 250,
  durationDays: { min: 1, max: 365, default: 14 },
  /** 0: no reminders. */
  reminderEveryDays: { min: 0, max: 365, default: 3 },
  everyDays: { min: 1, max: 730, default: 90 },
  /** Items decided by id in one call (a page, or a selection). */
  bulkIds: 1000,
  /** Items decided by filter in one call. */
  bulkFilter: 10_000,
  scopeList: 200,
} as const;

/** Texts of the campaigns, written in the spec's style (001 §8). */
export const ACCESS_REVIEW_MESSAGES = {
  loadCampaigns: 'Problem loading access review campaigns.',
  loadCampaign: 'Problem loading access review campaign.',
  loadItems: 'Problem loading access review items.',
  saveCampaignFailed: 'Unable to start access review campaign due to one or more errors.',
  saveScheduleFailed: 'Unable to save recurring access review due to one or more errors.',
  decideFailed: 'Unable to save access review decisions due to one or more errors.',
  /** A decision that arrives after the campaign closed (or was cancelled). */
  campaignClosed: 'This access review campaign has closed: decisions can no longer be made or changed.',
  /** A decision on a campaign whose items are still being stored (STARTING). */
  campaignStarting: 'This access review campaign is still being prepared: try again in a few minutes.',
  notYourItem: 'You are not a reviewer of this item.',
  alreadyClosing: 'This access review campaign is already closing or closed.',
  commentRequired: 'A comment is required to remove access.',
  changedSinceSnapshot: 'This access changed after the campaign started: a decision on it removes nothing.',
  started: (name: string) => `Access review campaign ${name} started`,
  scheduled: (name: string) => `Recurring access review ${name} saved`,
  closing: 'The campaign is closing: undecided items get its default, then the removals are applied.',
  cancelled: 'The campaign was cancelled: nothing was removed.',
  decided: (n: number) => `${n} decision${n === 1 ? '' : 's'} saved`,
} as const;

const nameList = (max: number) => z.array(textSchema(max, { min: 1 })).max(ACCESS_REVIEW_LIMITS.scopeList);

/** Which active access records a campaign reviews: every given list narrows (AND), within a list any (OR). */
export const AccessReviewScopeSchema = z.object({
  systemAccessIds: z.array(BodyIdSchema).max(ACCESS_REVIEW_LIMITS.scopeList).default([]),
  roleNames: nameList(128).default([]),
  laoIds: nameList(64).default([]),
});
export type AccessReviewScope = z.infer<typeof AccessReviewScopeSchema>;

const intIn = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

/** A campaign's definition, shared by a one-off campaign and a recurring schedule. */
export const AccessReviewDefinitionSchema = z.object({
  name: textSchema(ACCESS_REVIEW_LIMITS.name, { min: 1 }),
  scope: AccessReviewScopeSchema.default({ systemAccessIds: [], roleNames: [], laoIds: [] }),
  reviewers: z.enum(ACCESS_REVIEW_REVIEWERS).default('LAO_STAFF'),
  durationDays: intIn(ACCESS_REVIEW_LIMITS.durationDays),
  reminderEveryDays: intIn(ACCESS_REVIEW_LIMITS.reminderEveryDays),
  /** What an item nobody decided gets at close. */
  defaultDecision: z.enum(ACCESS_REVIEW_DECISIONS).default('KEEP'),
});
export type AccessReviewDefinition = z.infer<typeof AccessReviewDefinitionSchema>;

/** POST /rest/secure/system_mgmt/access_reviews: start one campaign now. */
export const CreateAccessReviewBodySchema = AccessReviewDefinitionSchema;
export type CreateAccessReviewBody = z.infer<typeof CreateAccessReviewBodySchema>;

/** POST /rest/secure/system_mgmt/access_review_schedules: a campaign every `everyDays` (the first one now). */
export const CreateAccessReviewScheduleBodySchema = AccessReviewDefinitionSchema.extend({
  everyDays: intIn(ACCESS_REVIEW_LIMITS.everyDays),
});
export type CreateAccessReviewScheduleBody = z.infer<typeof CreateAccessReviewScheduleBodySchema>;

const at = z.string().nullable();

/** A stored definition as campaigns and recurring reviews answer it (both carry the same fields). */
const storedDefinition = {
  name: z.string(),
  scope: AccessReviewScopeSchema,
  reviewers: z.enum(ACCESS_REVIEW_REVIEWERS),
  durationDays: z.number().int(),
  reminderEveryDays: z.number().int(),
  defaultDecision: z.enum(ACCESS_REVIEW_DECISIONS),
};

/** A campaign as listed and shown to ADMIN, with its progress. */
export const AccessReviewCampaignSchema = z.object({
  id: z.number().int(),
  workflowId: z.string(),
  /** The workflow in the Temporal Web UI, when configured. */
  workflowUrl: z.string().nullable(),
  ...storedDefinition,
  status: z.enum(ACCESS_REVIEW_STATUSES),
  scheduleId: z.number().int().nullable(),
  createdByUsername: z.string(),
  sysdat: z.string(),
  openedAt: at,
  deadline: at,
  closedAt: at,
  closedByUsername: z.string().nullable(),
  itemsTotal: z.number().int(),
  decided: z.number().int(),
  undecided: z.number().int(),
  /** Items decided Remove (before close), or removed (after). */
  toRemove: z.number().int(),
  removedCount: z.number().int(),
  keptCount: z.number().int(),
  changedCount: z.number().int(),
});
export type AccessReviewCampaign = z.infer<typeof AccessReviewCampaignSchema>;

/** GET .../access_reviews/{id}: the campaign and its progress by reviewer (the chart). */
export const AccessReviewCampaignDetailSchema = AccessReviewCampaignSchema.extend({
  /** Decisions per reviewer (username), most first. */
  byReviewer: z.array(z.object({ username: z.string(), keep: z.number().int(), remove: z.number().int() })),
  /** Undecided items per reviewing pool: an LAO id, or USER_SUPPORT_POOL. */
  undecidedByPool: z.array(z.object({ pool: z.string(), count: z.number().int() })),
});
export type AccessReviewCampaignDetail = z.infer<typeof AccessReviewCampaignDetailSchema>;

/** A recurring access review (a Temporal Schedule `access-review-schedule-<id>`). */
export const AccessReviewScheduleSchema = z.object({
  id: z.number().int(),
  scheduleId: z.string(),
  /** The schedule in the Temporal Web UI, when configured. */
  scheduleUrl: z.string().nullable(),
  ...storedDefinition,
  everyDays: z.number().int(),
  inactive: z.boolean(),
  sysdat: z.string(),
  campaigns: z.number().int(),
});
export type AccessReviewSchedule = z.infer<typeof AccessReviewScheduleSchema>;

/** One review item as its reviewer sees it. */
export const AccessReviewItemSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  campaignName: z.string(),
  deadline: at,
  accessId: z.number().int(),
  portalUserId: z.number().int(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  roleName: z.string(),
  siteCodes: z.array(z.string()),
  laoIds: z.array(z.string()),
  studyNames: z.array(z.string()),
  systemNames: z.array(z.string()),
  accessEndDate: z.string().nullable(),
  /** An LAO id or USER_SUPPORT_POOL. */
  pools: z.array(z.string()),
  decision: z.enum(ACCESS_REVIEW_DECISIONS).nullable(),
  comment: z.string().nullable(),
  decidedByUsername: z.string().nullable(),
  decidedAt: at,
  /** The access changed or ended after the snapshot (a decision removes nothing). */
  changed: z.boolean(),
  outcome: z.enum(ACCESS_REVIEW_OUTCOMES).nullable(),
  /** SIGNATURES=on only: the signature of the item's decision (oldest first), when a reviewer signed it. */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type AccessReviewItem = z.infer<typeof AccessReviewItemSchema>;

export const ACCESS_REVIEW_ITEM_STATES = ['UNDECIDED', 'KEEP', 'REMOVE', 'ALL'] as const;

/** GET /rest/secure/access_review/items: the caller's items in open campaigns, by person (name order). */
export const AccessReviewItemsQuerySchema = z.object({
  campaignId: queryIntSchema(1, 2_147_483_647, 0).optional(),
  page: queryIntSchema(1, 1_000_000, 1),
  size: queryIntSchema(1, 200, 50),
  /** Matches the person's name, username or email, or the study role (case-insensitive, part of the word). */
  filter: textSchema(256).optional(),
  state: z.enum(ACCESS_REVIEW_ITEM_STATES).default('UNDECIDED'),
});
export type AccessReviewItemsQuery = z.infer<typeof AccessReviewItemsQuerySchema>;

/**
 * POST /rest/secure/access_review/decisions: Keep or Remove for the items named (`itemIds`), or for every item
 * of the caller matching `filter` in one campaign. A Remove needs a comment (`comment: ['required']`).
 */
export const AccessReviewDecisionBodySchema = z
  .object({
    campaignId: BodyIdSchema,
    itemIds: z.array(BodyIdSchema).min(1).max(ACCESS_REVIEW_LIMITS.bulkIds).optional(),
    filter: z
      .object({
        text: textSchema(256).optional(),
        state: z.enum(ACCESS_REVIEW_ITEM_STATES).default('UNDECIDED'),
      })
      .optional(),
    decision: z.enum(ACCESS_REVIEW_DECISIONS),
    comment: textSchema(ACCESS_REVIEW_LIMITS.comment).optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.itemIds === !b.filter) ctx.addIssue({ code: 'custom', path: ['itemIds'], message: 'required' });
    if (b.decision === 'REMOVE' && !b.comment) ctx.addIssue({ code: 'custom', path: ['comment'], message: 'required' });
  });
export type AccessReviewDecisionBody = z.infer<typeof AccessReviewDecisionBodySchema>;

/** The answer of a decision call: one result per item tried, like a proxy batch's per-user results. */
export const AccessReviewDecisionResultSchema = z.object({
  decided: z.number().int(),
  refused: z.number().int(),
  results: z.array(
    z.object({
      itemId: z.number().int(),
      ok: z.boolean(),
      /** Why it was refused (ACCESS_REVIEW_MESSAGES), or a note ('changedSinceSnapshot'). */
      message: z.string().nullable(),
      /**
       * SIGNATURES=on only: the call's one signature names this item. With `ok` false or the changedSinceSnapshot
       * note the item was signed but not applied (SIGNATURE_TEXTS.notApplied).
       */
      signed: z.boolean().optional(),
    }),
  ),
  /** SIGNATURES=on only: the call's one signature (§11.50), naming every item tried (`items`). */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type AccessReviewDecisionResult = z.infer<typeof AccessReviewDecisionResultSchema>;

/** GET /rest/secure/access_review/mine: whether the caller reviews, and their open campaigns. */
export const MyAccessReviewsSchema = z.object({
  reviewer: z.boolean(),
  campaigns: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      deadline: at,
      total: z.number().int(),
      undecided: z.number().int(),
    }),
  ),
});
export type MyAccessReviews = z.infer<typeof MyAccessReviewsSchema>;

// --- Why does this person have this access (provenance) ---

/** Where an event came from; REGISTRATION: the approval of the person's registration (its id in `requestId`). */
export const PROVENANCE_SOURCES = [
  'REQUEST',
  'PROXY_BATCH',
  'REGISTRATION',
  'ADMIN_EDIT',
  'CAMPAIGN',
  'EXPIRY',
  'OTHER',
] as const;
export type ProvenanceSource = (typeof PROVENANCE_SOURCES)[number];

/** One event of an access record's history, read from the audit trail. */
export const ProvenanceEventSchema = z.object({
  at: z.string(),
  /** What happened: 'Granted', 'Changed', 'Kept in review', 'Removed', ... */
  label: z.string(),
  source: z.enum(PROVENANCE_SOURCES),
  actorUsername: z.string(),
  /** The access-change request (the registration for REGISTRATION), proxy batch or campaign it came from. */
  requestId: z.number().int().nullable(),
  batchId: z.number().int().nullable(),
  campaignId: z.number().int().nullable(),
  /** The campaign's name as its decision row recorded it (CAMPAIGN events), else null. */
  campaignName: z.string().nullable(),
  workflowId: z.string().nullable(),
  comment: z.string().nullable(),
  /**
   * SIGNATURES=on only: the signatures of the event (oldest first): an admin edit's, a reviewer's decision's; a
   * campaign's outcome (kept, removed: the system's act) shows the signed close it followed, when a person
   * closed the campaign.
   */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type ProvenanceEvent = z.infer<typeof ProvenanceEventSchema>;

/** GET .../user_access/user/{id}/provenance: per active record (by its id), its history, oldest first. */
export const AccessProvenanceSchema = z.object({
  records: z.array(
    z.object({ accessId: z.number().int(), roleName: z.string(), events: z.array(ProvenanceEventSchema) }),
  ),
});
export type AccessProvenance = z.infer<typeof AccessProvenanceSchema>;

export const ACCESS_REVIEW_DEFAULTS = { studyRole: 'LAO Staff' } as const;

/** The configuration of campaigns (API and worker), from the environment. */
export const AccessReviewSettingsSchema = z.object({
  /** The study role whose holders review the items of their LAOs. */
  ACCESS_REVIEW_STUDY_ROLE: z.string().min(1).default(ACCESS_REVIEW_DEFAULTS.studyRole),
});
export type AccessReviewSettings = z.infer<typeof AccessReviewSettingsSchema>;
