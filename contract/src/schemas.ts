import { z } from 'zod';
import { PERMISSIONS } from './permissions';
import { REQUEST_STATUSES, REQUEST_TYPES } from './statuses';
import { FIELD_LIMITS } from './limits';
import { BodyIdSchema, bodyIntSchema, queryIntSchema } from './ids';
import { textSchema } from './text';
import { AccessEndDateSchema } from './access-dates';
import { PasskeySignInBodySchema } from './passkeys';
import { SignatureViewSchema } from './signatures';
import { APPROVAL_LIMITS, RequestApprovalViewSchema } from './approval-policies';

/** Zod schemas of the wire contract (000 §3, §7; 001 §3, §7). Field names are the spec's. */

/** Stored strings refuse NUL and lone surrogates (`encoding`, contract/src/text.ts) and are trimmed. */
const trimmed = (max: number) => textSchema(max);
/** Ids inside bodies are strict numbers within PostgreSQL's int4 (contract/src/ids.ts). */
const id = BodyIdSchema;

// --- Authentication (000 §3 Sign-in response, §7) ---------------------------------------------------

export const TokenCreateBodySchema = z.object({
  username: textSchema(FIELD_LIMITS.email, { min: 1 }),
  password: textSchema(256, { min: 1, trim: false }),
});
export type TokenCreateBody = z.infer<typeof TokenCreateBodySchema>;

export const EXPIRY_STATES = ['ForceUserToChangePassword', 'WarnUserToChangePassword'] as const;

export const TokenCreateResponseSchema = z.object({
  tokenTimeoutInSeconds: z.number().int().optional(),
  passwordExpiresSoon: z.boolean().optional(),
  expiryState: z.enum(EXPIRY_STATES).optional(),
  xsrfToken: z.string().optional(),
  credentialsInvalid: z.boolean().optional(),
  accountLocked: z.boolean().optional(),
  accountDisabled: z.boolean().optional(),
  passwordExpired: z.boolean().optional(),
  unspecifiedFailure: z.boolean().optional(),
  attemptsLeftUntilLocked: z.number().int().optional(),
  /** The 000 §8 text for the failure, for clients that show the server's words. */
  message: z.string().optional(),
  /**
   * Issue 37: the person has a second factor; the session may only take the second step
   * (POST /rest/secure/token/second_factor) with one of `methods` (a passkey first), within 5 minutes. Absent otherwise, so the
   * answer is exactly 000 §3's for a person without one.
   */
  secondFactor: z.object({ methods: z.array(z.enum(['WEBAUTHN', 'TOTP', 'RECOVERY_CODE'])) }).optional(),
  /**
   * Issue 37: the person must use a second factor (SECOND_FACTOR_REQUIRED_PERMISSIONS) and has none; the
   * session may only enrol one. Absent otherwise.
   */
  secondFactorEnrolment: z.literal(true).optional(),
  /**
   * A passkey sign-in refused because the password must be changed first (expired or reset): 000 §3's change
   * needs the current password, so the web goes to the password form. Absent otherwise.
   */
  usePasswordForm: z.literal(true).optional(),
});
export type TokenCreateResponse = z.infer<typeof TokenCreateResponseSchema>;

/**
 * The sign-in's second step (issue 37): an authenticator app's code, one recovery code, or a passkey's answer
 * to the challenge of POST /rest/secure/token/second_factor/webauthn/options.
 */
export const SecondFactorStepBodySchema = z.union([
  z.strictObject({ code: z.string().min(1).max(16) }),
  z.strictObject({ recoveryCode: z.string().min(1).max(64) }),
  PasskeySignInBodySchema,
]);
export type SecondFactorStepBody = z.infer<typeof SecondFactorStepBodySchema>;

export const PermissionListSchema = z.array(z.enum(PERMISSIONS));

// --- Reference data (000 §3) -------------------------------------------------------------------------

export const SiteSchema = z.object({
  siteCode: z.string(),
  siteName: z.string(),
  siteStatus: z.string(),
  siteType: z.enum(['AO', 'LAO']),
  /** 000 §3: the public list's name for siteType. */
  type: z.enum(['AO', 'LAO']),
  description: z.string().nullable(),
  /** The LAO code (the front end's laoCode); null for an AO. */
  otherIdentifier: z.string().nullable(),
});
export type Site = z.infer<typeof SiteSchema>;

export const StudySchema = z.object({ study: z.string() });
export type Study = z.infer<typeof StudySchema>;

export const StudyRoleSchema = z.object({
  id: z.number().int(),
  roleName: z.string(),
  description: z.string(),
  siteRequired: z.boolean(),
  studyRequired: z.boolean(),
  allowAOs: z.boolean(),
  allowLAOs: z.boolean(),
  systemAccessIds: z.array(z.number().int()),
  inactive: z.boolean(),
  sort: z.number().int(),
});
export type StudyRole = z.infer<typeof StudyRoleSchema>;

export const SystemSchema = z.object({
  id: z.number().int(),
  systemName: z.string(),
  description: z.string(),
  inactive: z.boolean(),
  sort: z.number().int(),
});
export type System = z.infer<typeof SystemSchema>;

export const PortalRoleSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  inactive: z.boolean(),
  sort: z.number().int(),
});
export type PortalRole = z.infer<typeof PortalRoleSchema>;

// --- User access records (000 §3 User access record) -------------------------------------------------

/** One role block as it travels on the wire (001 §3 Extended question answer / accessControls). */
export const AccessControlSchema = z.object({
  questionNum: bodyIntSchema(0).optional(),
  roleName: textSchema(FIELD_LIMITS.studyRoleName, { min: 1 }),
  siteCodes: z
    .array(textSchema(32, { min: 1, trim: false }))
    .max(500)
    .default([]),
  laoIds: z
    .array(textSchema(32, { min: 1, trim: false }))
    .max(500)
    .default([]),
  studyNames: z
    .array(textSchema(128, { min: 1, trim: false }))
    .max(500)
    .default([]),
  systemAccessIds: z.array(BodyIdSchema).max(100).default([]),
  /**
   * Issue 25: the day the access ends (inclusive, in NETWORK_TIME_ZONE), null for none; absent leaves a held
   * record's end date as it is (clients that never send it keep working).
   */
  accessEndDate: AccessEndDateSchema,
});
export type AccessControl = z.infer<typeof AccessControlSchema>;

/** One of a user's or a record's sites (000 §3 User.sites): an AO, or an LAO with its code in otherIdentifier. */
export const UserSiteSchema = z.object({
  type: z.enum(['AO', 'LAO']),
  siteCode: z.string(),
  otherIdentifier: z.string().nullable(),
});
export type UserSite = z.infer<typeof UserSiteSchema>;

/**
 * The `entity` of a user access record (000 §3): the extended-question-answer shape is shared by registrations,
 * access-change requests and users' access; a record held by a portal user names that owner.
 */
export const USER_ACCESS_ENTITY = 'PortalUser';

/**
 * A user access record as the API answers it (000 §3 User access record): the API form (`sites`) and the front
 * end form (`siteCodes`, `laoIds`) both; `formId` is the access-change request whose review wrote this version
 * (null for a record written otherwise: approval of a registration, an administrator's edit, the seed).
 */
export const UserAccessSchema = z.object({
  id: z.number().int(),
  portalUserId: z.number().int(),
  entity: z.literal(USER_ACCESS_ENTITY),
  formId: z.number().int().nullable(),
  roleName: z.string(),
  inactive: z.boolean(),
  sites: z.array(UserSiteSchema),
  siteCodes: z.array(z.string()),
  laoIds: z.array(z.string()),
  studyNames: z.array(z.string()),
  systemAccessIds: z.array(z.number().int()),
  /** Issue 25: the last day of the access (inclusive, NETWORK_TIME_ZONE), null for none. */
  accessEndDate: z.string().nullable(),
  /** Issue 25: true when the access ends within ACCESS_EXPIRY_NOTICE_DAYS (the screens mark it). */
  accessEndsSoon: z.boolean(),
  versionno: z.number().int(),
  priorAccessControlId: z.number().int().nullable(),
  originalRevisionNumber: z.number().int().nullable(),
  createdBy: z.string(),
  lastModifiedBy: z.string(),
  sysdat: z.string(),
  dchng: z.string(),
});
export type UserAccess = z.infer<typeof UserAccessSchema>;

/**
 * One access record as a writer sends it (000 §3 User access record; 000 §7 user_access POST / PUT and the
 * review's `userAccesses`): the role block, plus the record's `id` and `versionno` when it edits a stored one
 * (a stale `versionno` is refused). The other fields of the record's shape may be sent back and are ignored.
 */
export const UserAccessInputSchema = AccessControlSchema.extend({
  id: BodyIdSchema.nullable().optional(),
  portalUserId: BodyIdSchema.optional(),
  versionno: bodyIntSchema(0).optional(),
});
export type UserAccessInput = z.input<typeof UserAccessInputSchema>;

// --- Access-modification requests (001 §3, §7) -------------------------------------------------------

/** POST /rest/secure/user_access_mod_request body (001 §7). */
export const CreateAccessModRequestBodySchema = z.object({
  portalUserId: id,
  email: textSchema(FIELD_LIMITS.email, { trim: false }).optional(),
  requestType: z.enum(REQUEST_TYPES),
  requestStatus: z.literal('NEW').default('NEW'),
  accessControls: z.array(AccessControlSchema).min(1).max(50),
  requesterComments: trimmed(FIELD_LIMITS.requesterComments).default(''),
  reviewerComments: trimmed(FIELD_LIMITS.reviewerComments).optional(),
  sysaidTicket: trimmed(FIELD_LIMITS.sysaidTicket).optional(),
});
export type CreateAccessModRequestBody = z.infer<typeof CreateAccessModRequestBodySchema>;

export const AccessModRequestSchema = z.object({
  id: z.number().int(),
  workflowId: z.string(),
  requestType: z.enum(REQUEST_TYPES),
  requestStatus: z.enum(REQUEST_STATUSES),
  requesterComments: z.string(),
  reviewerComments: z.string(),
  sysaidTicket: z.string(),
  inactive: z.boolean(),
  sysdat: z.string(),
  dchng: z.string(),
  lastModifiedBy: z.string(),
  subjectUserId: z.number().int(),
  proxyUserId: z.number().int().nullable(),
  portalUserId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  isProxyRequest: z.boolean(),
  proxyName: z.string().nullable(),
  accessControls: z.array(AccessControlSchema),
  versionno: z.number().int(),
  /** Statuses a reviewer may save this request with (see statuses.allowedNextStatuses). */
  allowedNextStatuses: z.array(z.enum(REQUEST_STATUSES)),
  /** Link to the request's workflow in the Temporal Web UI, when configured. */
  workflowUrl: z.string().nullable(),
  /** CHANGE / REMOVAL: the access record the request was filed against (its original access, 001 §2.8). */
  existingUserAccessId: z.number().int().nullable().optional(),
  /** That record, with the one request: its readers see it without READ_USERS (null: NEW, or gone). */
  originalAccess: UserAccessSchema.nullable().optional(),
  /** The decision's electronic signatures, oldest first; present only when SIGNATURES=on. */
  signatures: z.array(SignatureViewSchema).optional(),
  /**
   * The approval stages (docs/decisions.md "Approval policies"): null for a request with no plan; absent from
   * the lists that do not read them.
   */
  approval: RequestApprovalViewSchema.nullable().optional(),
});
export type AccessModRequest = z.infer<typeof AccessModRequestSchema>;

/** PUT /rest/secure/user_management/review_access_change_request body (000 §7; 001 §2.8). */
/**
 * The browser's key of one save attempt (REQUEST-LIFECYCLE rule 6): new for each new attempt, the same when
 * the same attempt is retried after a 202 or a lost answer, so the retry joins the first one's update.
 */
export const ReviewAttemptKeySchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/** 202 answer of a save whose update has not finished within the API's deadline (rule 6). */
export const ReviewProcessingSchema = z.object({ status: z.literal('PROCESSING'), message: z.string() });
export type ReviewProcessing = z.infer<typeof ReviewProcessingSchema>;

/**
 * The review's body (000 §7): `portalUser` (its `portalRoleIds`; the rest of the user is ignored) and
 * `userAccesses` are the user's portal roles and access records as the reviewer wants them (001 §2.8: they take
 * effect on saving, whatever the status); absent, they are left as they are.
 */
export const ReviewAccessChangeBodySchema = z.object({
  portalUser: z.object({ id, portalRoleIds: z.array(id).max(50).default([]) }).optional(),
  userAccesses: z.array(UserAccessInputSchema).max(50).optional(),
  userAccessModificationRequest: z.object({
    id,
    versionno: bodyIntSchema(0),
    requestStatus: z.enum(REQUEST_STATUSES),
    reviewerComments: trimmed(FIELD_LIMITS.reviewerComments).default(''),
    sysaidTicket: trimmed(FIELD_LIMITS.sysaidTicket).default(''),
  }),
  attemptKey: ReviewAttemptKeySchema.optional(),
  /**
   * Why an APPROVED save is made while approval stages are still open (docs/decisions.md "Approval policies"):
   * required then (422 `stagesOpen` without it), audited as an override.
   */
  approvalOverride: textSchema(APPROVAL_LIMITS.overrideJustification).optional(),
});
export type ReviewAccessChangeBody = z.infer<typeof ReviewAccessChangeBodySchema>;

// --- Lists and pages (000 §3 Page info, §7 user_requests) --------------------------------------------

/** The size of a load-all call (000 §9 "Load-all calls: page 1, size 1,000,000"): the whole list, streamed. */
export const LOAD_ALL_SIZE = 1_000_000;

/** Query of a server-paged list: page is 1-based, sort is 'field,asc|desc'. */
export const PageQuerySchema = z.object({
  /** Bounded so that the row offset stays far inside PostgreSQL's range (issue 13). */
  page: queryIntSchema(1, 1_000_000, 1),
  size: queryIntSchema(1, 1000, 25),
  sort: z
    .string()
    .regex(/^[A-Za-z.]+(,(asc|desc))?$/)
    .optional(),
  filter: textSchema(256).optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The load-all call is the first page only: a later page of the whole list is empty by definition. */
export const loadAllOnFirstPage = (q: { page: number; size: number }): boolean =>
  q.size !== LOAD_ALL_SIZE || q.page === 1;

/** The rows of one page of a list that serves a page of any size up to this, besides the load-all call. */
export const MAX_FETCH_SIZE = 1000;

/** A page size of 1-1,000 (`defaultSize` when absent) or the load-all size (000 §9), else 'invalid'. */
export function fetchSizeSchema(defaultSize: number) {
  return queryIntSchema(1, LOAD_ALL_SIZE, defaultSize).refine((n) => n <= MAX_FETCH_SIZE || n === LOAD_ALL_SIZE, {
    message: 'invalid',
  });
}

/**
 * Query of a list read whole or fetched in pages (001 §7 lists, 000 §9 "Load-all calls: page 1, size
 * 1,000,000; default fetch size 300"): page is 1-based; size is 1-1,000 (default 300) or the load-all size on
 * page 1, checked by `.refine(loadAllOnFirstPage, LOAD_ALL_PAGE_CHECK)`. Anything else is answered 422 with
 * fieldErrors keyed by the parameter.
 */
export const FetchPageFieldsSchema = z.object({
  page: PageQuerySchema.shape.page,
  size: fetchSizeSchema(300),
});

/** The refinement every such query ends with (extended by a list's own parameters first). */
export const LOAD_ALL_PAGE_CHECK: { message: string; path: string[] } = { message: 'invalid', path: ['page'] };

/** `FetchPageFieldsSchema` of a list with one fixed order. */
export const FetchPageQuerySchema = FetchPageFieldsSchema.refine(loadAllOnFirstPage, LOAD_ALL_PAGE_CHECK);
export type FetchPageQuery = z.infer<typeof FetchPageQuerySchema>;

export interface Page<T> {
  content: T[];
  totalElements: number;
  numberOfElements: number;
  size: number;
  number: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  sort: string;
}

/** A row of the User Requests queue (000 §3 User request). */
/** The kinds the User Requests queue lists (000 §3 User request `userRequestType`). */
export const USER_REQUEST_TYPES = ['ACCESS_CHANGE', 'REGISTRATION', 'PROFILE_CHANGE'] as const;
export type UserRequestType = (typeof USER_REQUEST_TYPES)[number];
export const USER_REQUEST_TYPE_LABELS: Record<UserRequestType, string> = {
  ACCESS_CHANGE: 'Access Change',
  REGISTRATION: 'Registration',
  PROFILE_CHANGE: 'Profile Change',
};

/** Every status a queue row may have: the requests' (001 §4) and the registrations' (PENDING, DENIED). */
export const USER_REQUEST_STATUSES = [...REQUEST_STATUSES, 'PENDING', 'DENIED'] as const;
export type UserRequestStatus = (typeof USER_REQUEST_STATUSES)[number];

/**
 * One row of the User Requests queue (000 §3 User request), of any kind; (`userRequestType`, `id`) is its key.
 * `requestType` is the access-change type, null for a registration or a profile change.
 */
export const UserRequestRowSchema = z.object({
  id: z.number().int(),
  userRequestType: z.enum(USER_REQUEST_TYPES),
  requestType: z.enum(REQUEST_TYPES).nullable(),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  dateSubmitted: z.string(),
  sysaidTicket: z.string(),
  lastModified: z.string(),
  lastModifiedBy: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  organizationName: z.string(),
});
export type UserRequestRow = z.infer<typeof UserRequestRowSchema>;

/**
 * GET /rest/secure/user_management/user_requests/{status}: 'pending' (every unresolved status of every kind),
 * 'all', or one status (the kinds that have it).
 */
export const UserRequestsStatusSchema = z.enum(['pending', 'all', ...USER_REQUEST_STATUSES]);
export type UserRequestsStatus = z.infer<typeof UserRequestsStatusSchema>;

// --- Profile (000 §3 Profile) ------------------------------------------------------------------------

/*
 * The person fields the user screens' answers share (000 §3 User and Profile; 000 §2 Users list): Profile,
 * User (user-detail.ts) and the Users list row (users.ts) spread them in the order they answer them.
 */

/** The account's directory identity and name, in the order Profile and the Users list answer them. */
export const PersonIdentitySchema = z.object({
  /** The directory entry's entryUUID; null while the user has no entry. */
  uuid: z.string().nullable(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

/**
 * The Organization Details and the mailing address up to the city (000 §2 User detail and Profile Details
 * tab). Country and state follow in each answer's own form (codes on the User, objects on the Profile).
 */
export const PersonDetailsSchema = z.object({
  organizationName: z.string(),
  jobTitle: z.string(),
  phoneNumber: z.string(),
  /** The phone extension ('' when none): the proxy registration's requester banner shows it (001 §2.2). */
  phoneExtension: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
});

export const ProfileSchema = z.object({
  portalUserId: z.number().int(),
  ...PersonIdentitySchema.shape,
  /** The Details fields with the mailing address (000 §2 Profile Details tab). */
  ...PersonDetailsSchema.shape,
  /** Country and state as objects (000 §3 Profile). */
  country: z.object({ country: z.string(), countryName: z.string() }).nullable(),
  state: z.object({ state: z.string(), stateName: z.string() }).nullable(),
  postalCode: z.string(),
  accountType: z.string(),
  roles: z.array(PortalRoleSchema),
  userAccesses: z.array(UserAccessSchema),
  canSubmitProxyAccessChangeRequests: z.object({ canSubmit: z.boolean(), forAllUsers: z.boolean() }),
});
export type Profile = z.infer<typeof ProfileSchema>;
