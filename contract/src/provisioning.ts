import { z } from 'zod';
import { BodyIdSchema, PathIdSchema, queryIntSchema } from './ids';
import { storableText } from './text';
import { type SsoUriRules, ssoUriProblem } from './sso-client';

/**
 * Provisioning (SCIM 2.0, RFC 7643/7644; docs/decisions.md "Provisioning"): a study system that needs its
 * accounts before the first sign-in gets them from the portal. One connection per system (Configure → Systems,
 * ADMIN, audited): the target's SCIM base URL, a bearer token (sealed, never answered again), whether the
 * person's study access travels as the portal's User extension, whether a removal deletes the account instead
 * of deactivating it, how long a failing target is retried, and how often it is reconciled. Texts: the spec
 * has none; written in the style of 001 §8.
 */

/**
 * The portal's SCIM schema extension of the User resource (RFC 7643 §3.3): `studyAccess`, one entry per study
 * role held for one study at one organisation (a site code or an LAO id) at this system. `value` is
 * `<studyRole>/<study>/<organization>`, so entries compare as strings. Documented in docs/decisions.md.
 */
export const PORTAL_SCIM_EXTENSION = 'urn:portal-gateway:params:scim:schemas:extension:study-access:2.0:User';
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** One entry of the extension's `studyAccess`. */
export interface ScimStudyAccess {
  value: string;
  studyRole: string;
  study: string;
  organization: string;
}

/** How the person's study access travels: the portal's extension, or not at all (core User only). */
export const PROVISIONING_ACCESS_AS = ['EXTENSION', 'NONE'] as const;
export type ProvisioningAccessAs = (typeof PROVISIONING_ACCESS_AS)[number];

/** The state of one person's account at one system, as the portal knows it. */
export const PROVISIONING_STATES = ['PENDING', 'IN_SYNC', 'ERROR'] as const;
export type ProvisioningState = (typeof PROVISIONING_STATES)[number];
export const PROVISIONING_STATE_LABELS: Record<ProvisioningState, string> = {
  PENDING: 'Pending',
  IN_SYNC: 'In sync',
  ERROR: 'Error',
};

/** What a reconciliation reports. */
export const PROVISIONING_DIFFERENCE_KINDS = ['ORPHAN', 'MISSING', 'DRIFTED'] as const;
export type ProvisioningDifferenceKind = (typeof PROVISIONING_DIFFERENCE_KINDS)[number];
export const PROVISIONING_DIFFERENCE_LABELS: Record<ProvisioningDifferenceKind, string> = {
  ORPHAN: 'Should not exist',
  MISSING: 'Missing',
  DRIFTED: 'Drifted',
};

export const PROVISIONING_LIMITS = {
  baseUrl: 2048,
  token: 2048,
  retryDays: { min: 1, max: 30 },
  reconcileEveryMinutes: { min: 5, max: 10_080 },
  /** The differences a report shows; the CSV holds all. */
  reportDifferences: 1000,
} as const;

/** Audit actions of a connection (entity type `ProvisioningConnection`, keyed by the system's id). */
export const PROVISIONING_AUDIT_ACTIONS = [
  'CREATED',
  'UPDATED',
  'DELETED',
  'TESTED',
  'RESYNC_REQUESTED',
  'RECONCILE_REQUESTED',
] as const;

export const PROVISIONING_MESSAGES = {
  notSetUp: 'Provisioning is not set up for this system.',
  load: 'Problem loading the provisioning connection.',
  saveFailed: 'Unable to save the provisioning connection due to one or more errors.',
  deleteFailed: 'Unable to remove provisioning.',
  saved: 'Provisioning connection saved',
  deleted: 'Provisioning removed',
  fixedSystem: 'The fixed system is the portal itself: it is not provisioned.',
  tokenOnce: 'The bearer token is stored encrypted and is never shown again.',
  tokenKept: 'Leave blank to keep the stored token.',
  testOk: 'Connection works: the target answered its service provider configuration.',
  testFailed: (why: string) => `Connection failed: ${why}`,
  resyncStarted: 'Re-sync started',
  reconcileStarted: 'Reconciliation started',
  notEnabled: 'Provisioning is off for this system.',
  keyMissing: 'Provisioning is unavailable: PROVISIONING_KEY is not set.',
  /** 'Test connection' of a connection saved without a token (a result, not an error). */
  noToken: 'no bearer token is stored',
  /** 'Test connection' when the stored token cannot be opened with the configured key (a result). */
  tokenUnreadable: 'the stored bearer token cannot be opened with PROVISIONING_KEY: enter it again',
  /** 404 of an unknown reconciliation run (or one of another system). */
  loadReconciliation: 'Problem loading the reconciliation.',
  loadReconciliations: 'Problem loading the reconciliations.',
  /** 503 of 'Reconcile now' when the workflow service did not take the start (the run is marked FAILED). */
  reconcileUnavailable:
    'The workflow service is not answering: the reconciliation was not started. Please try again in a few minutes.',
} as const;

/**
 * The body of PUT .../system_access/{id}/provisioning under `rules` (https only in production; loopback http
 * outside it, as for single sign-on URIs). `token`: a new bearer token, or null/blank to keep the stored one.
 */
export function provisioningBodySchema(rules: SsoUriRules) {
  return z.object({
    baseUrl: storableText.trim().superRefine((value, ctx) => {
      if (!value) return void ctx.addIssue({ code: 'custom', message: 'required', input: value });
      const problem = ssoUriProblem(value, rules);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
    token: z.preprocess(
      (v) => (v === undefined || (typeof v === 'string' && !v.trim()) ? null : v),
      storableText.trim().max(PROVISIONING_LIMITS.token, 'size').nullable(),
    ),
    enabled: z.boolean().default(false),
    accessAs: z.enum(PROVISIONING_ACCESS_AS).default('EXTENSION'),
    deleteOnRemoval: z.boolean().default(false),
    retryDays: z
      .number()
      .int('invalid')
      .min(PROVISIONING_LIMITS.retryDays.min, 'size')
      .max(PROVISIONING_LIMITS.retryDays.max, 'size')
      .default(7),
    reconcileEveryMinutes: z
      .number()
      .int('invalid')
      .min(PROVISIONING_LIMITS.reconcileEveryMinutes.min, 'size')
      .max(PROVISIONING_LIMITS.reconcileEveryMinutes.max, 'size')
      .default(1440),
  });
}
export const ProvisioningBodySchema = provisioningBodySchema({ allowLoopbackHttp: true });
export type ProvisioningBody = z.infer<typeof ProvisioningBodySchema>;

/** A reconciliation run's summary. */
export const ReconciliationSummarySchema = z.object({
  id: z.number().int(),
  systemAccessId: z.number().int(),
  status: z.enum(['RUNNING', 'DONE', 'FAILED']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  requestedBy: z.string().nullable(),
  targetAccounts: z.number().int(),
  portalAccounts: z.number().int(),
  orphans: z.number().int(),
  missing: z.number().int(),
  drifted: z.number().int(),
  error: z.string().nullable(),
});
export type ReconciliationSummary = z.infer<typeof ReconciliationSummarySchema>;

/** A connection as Configure → Systems shows it: never the token. */
export const ProvisioningConnectionSchema = z.object({
  systemAccessId: z.number().int(),
  baseUrl: z.string(),
  hasToken: z.boolean(),
  enabled: z.boolean(),
  accessAs: z.enum(PROVISIONING_ACCESS_AS),
  deleteOnRemoval: z.boolean(),
  retryDays: z.number().int(),
  reconcileEveryMinutes: z.number().int(),
  lastTestAt: z.string().nullable(),
  lastTestOk: z.boolean().nullable(),
  lastTestMessage: z.string().nullable(),
  /** Accounts by state at this system. */
  accounts: z.object({ pending: z.number().int(), inSync: z.number().int(), error: z.number().int() }),
  lastReconciliation: ReconciliationSummarySchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProvisioningConnection = z.infer<typeof ProvisioningConnectionSchema>;

/** The answer of 'Test connection'. */
export const ProvisioningTestResultSchema = z.object({ ok: z.boolean(), message: z.string(), testedAt: z.string() });
export type ProvisioningTestResult = z.infer<typeof ProvisioningTestResultSchema>;

/** Path params of a reconciliation run of a system: .../system_access/{id}/provisioning/reconciliations/{runId}. */
export const ProvisioningRunParamsSchema = z.object({ id: PathIdSchema, runId: PathIdSchema });

/** The page query of a system's reconciliations (newest first). */
export const ProvisioningReconciliationsQuerySchema = z.object({
  page: queryIntSchema(1, 1_000_000, 1),
  size: queryIntSchema(1, 200, 25),
});

/** The columns of a run's differences.csv, in order (ProvisioningDifferenceSchema's fields). */
export const PROVISIONING_DIFFERENCE_COLUMNS = [
  'kind',
  'externalId',
  'userName',
  'targetId',
  'portalUserId',
  'detail',
] as const;

/** The body of 'Re-sync this person'. */
export const ProvisioningResyncBodySchema = z.object({ portalUserId: BodyIdSchema });
export type ProvisioningResyncBody = z.infer<typeof ProvisioningResyncBodySchema>;

/** One difference of a report. */
export const ProvisioningDifferenceSchema = z.object({
  kind: z.enum(PROVISIONING_DIFFERENCE_KINDS),
  externalId: z.string().nullable(),
  userName: z.string().nullable(),
  targetId: z.string().nullable(),
  portalUserId: z.number().int().nullable(),
  detail: z.string(),
});
export type ProvisioningDifference = z.infer<typeof ProvisioningDifferenceSchema>;

/** A report: the run and its first PROVISIONING_LIMITS.reportDifferences differences (the CSV has all). */
export const ReconciliationReportSchema = ReconciliationSummarySchema.extend({
  differences: z.array(ProvisioningDifferenceSchema),
});
export type ReconciliationReport = z.infer<typeof ReconciliationReportSchema>;

/** One provisioned system's account of a person (the user detail's Access tab). */
export const ProvisioningAccountSchema = z.object({
  systemAccessId: z.number().int(),
  systemName: z.string(),
  state: z.enum(PROVISIONING_STATES),
  active: z.boolean().nullable(),
  lastError: z.string().nullable(),
  changedAt: z.string(),
  syncedAt: z.string().nullable(),
});
export type ProvisioningAccount = z.infer<typeof ProvisioningAccountSchema>;
