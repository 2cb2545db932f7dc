/**
 * The registrations' wire contract (001 §2.1-2.4, §3 Registration, LDAP form and match, account types,
 * approve/deny body; §4 Registration status, Approval warning; §5; §7 Registrations; §8). Shared by the API
 * (route schemas) and the browser (forms). Field names are the spec's.
 */
import { z } from 'zod';
import { AccessControlSchema, ReviewAttemptKeySchema } from '../schemas';
import { BodyIdSchema, bodyIntSchema } from '../ids';
import { FIELD_LIMITS } from '../limits';
import { textSchema } from '../text';
import { SignatureViewSchema } from '../signatures';

/**
 * 001 §4: PENDING initially; a reviewer approves (APPROVED: the user exists), rejects (DENIED, read-only) or
 * deletes (DELETED: kept for the audit trail, never listed). Anything else reads as UNKNOWN in the screens.
 */
export const REGISTRATION_STATUSES = ['PENDING', 'APPROVED', 'DENIED', 'DELETED'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const RESOLVED_REGISTRATION_STATUSES: readonly RegistrationStatus[] = ['APPROVED', 'DENIED', 'DELETED'];

export const REGISTRATION_STATUS_LABELS: Record<RegistrationStatus, string> = {
  PENDING: 'Pending',
  APPROVED: 'Approved',
  DENIED: 'Denied',
  DELETED: 'Deleted',
};

/**
 * The captcha answer's key spellings the server reads (001 §5 "under several key spellings"); the spec's own
 * is `g-recaptcha-response`. Its errors are answered under the same key.
 */
export const CAPTCHA_KEYS = ['g-recaptcha-response', 'gRecaptchaResponse', 'recaptchaResponse', 'captcha'] as const;
export const CAPTCHA_KEY = CAPTCHA_KEYS[0];

const required = (max: number) => textSchema(max, { min: 1 });
const optional = (max: number) => textSchema(max).default('');
const emailSchema = textSchema(FIELD_LIMITS.email, { min: 1 }).pipe(z.email({ message: 'validEmail' }));
/** Phone numbers: digits and the usual separators only (001 §5 limits 15 and 5). */
const phone = (max: number, min = 0) => textSchema(max, { min }).regex(/^[0-9+()\-. ]*$/, { message: 'invalid' });

/** The fields a visitor or a proxy fills in for the person to register (001 §2.1, §3 Registration). */
export const RegistrationFieldsSchema = z.object({
  firstName: required(FIELD_LIMITS.firstName),
  lastName: required(FIELD_LIMITS.lastName),
  jobTitle: required(FIELD_LIMITS.jobTitle),
  organizationName: required(FIELD_LIMITS.organizationName),
  phoneNumber: phone(FIELD_LIMITS.phoneNumber, 1),
  phoneExtension: phone(FIELD_LIMITS.phoneExtension).default(''),
  email: emailSchema,
  /** The 'Access Needed' role blocks (the form's extendedQuestionAnswers). */
  accessControls: z.array(AccessControlSchema).min(1).max(20),
  requesterComments: optional(FIELD_LIMITS.requesterComments),
});
export type RegistrationFields = z.infer<typeof RegistrationFieldsSchema>;

/** POST /rest/public/user_registration: the public form with its captcha answer (any of CAPTCHA_KEYS). */
export const PublicRegistrationBodySchema = RegistrationFieldsSchema.extend({
  'g-recaptcha-response': z.string().max(20_000).optional(),
  gRecaptchaResponse: z.string().max(20_000).optional(),
  recaptchaResponse: z.string().max(20_000).optional(),
  captcha: z.string().max(20_000).optional(),
});
export type PublicRegistrationBody = z.infer<typeof PublicRegistrationBodySchema>;

/** POST /rest/secure/user_registration: 'Request a User' (001 §2.2) with the person completing the form. */
export const ProxyRegistrationBodySchema = RegistrationFieldsSchema.extend({
  personCompletingThisFormEmail: textSchema(FIELD_LIMITS.email)
    .pipe(z.union([z.literal(''), z.email({ message: 'validEmail' })]))
    .default(''),
  personCompletingThisFormFullName: optional(FIELD_LIMITS.firstName + FIELD_LIMITS.lastName + 1),
  personCompletingThisFormPhoneNumber: phone(FIELD_LIMITS.phoneNumber).default(''),
  personCompletingThisFormPhoneExtension: phone(FIELD_LIMITS.phoneExtension).default(''),
});
export type ProxyRegistrationBody = z.infer<typeof ProxyRegistrationBodySchema>;

/** A registration as every call answers it (001 §3 Registration). */
export const RegistrationSchema = z.object({
  id: z.number().int(),
  versionno: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  jobTitle: z.string(),
  organizationName: z.string(),
  phoneNumber: z.string(),
  phoneExtension: z.string(),
  email: z.string(),
  accessControls: z.array(AccessControlSchema),
  requesterComments: z.string(),
  reviewerComments: z.string(),
  sysaidTicket: z.string(),
  registrationStatus: z.enum(REGISTRATION_STATUSES),
  /** The reviewer's saved choice of portal roles (001 §3 Registration review form). */
  portalRoleIds: z.array(z.number().int()),
  isProxy: z.boolean(),
  proxyUserId: z.number().int().nullable(),
  proxyName: z.string().nullable(),
  proxyEmail: z.string().nullable(),
  proxyPhone: z.string().nullable(),
  proxyPhoneExt: z.string().nullable(),
  personCompletingThisFormEmail: z.string(),
  personCompletingThisFormFullName: z.string(),
  personCompletingThisFormPhoneNumber: z.string(),
  personCompletingThisFormPhoneExtension: z.string(),
  /** The portal user created by the approval, once approved. */
  portalUserId: z.number().int().nullable(),
  sysdat: z.string(),
  dchng: z.string(),
  lastModifiedBy: z.string(),
  workflowId: z.string(),
  workflowUrl: z.string().nullable(),
  /** The decision's electronic signatures, oldest first; present only when SIGNATURES=on. */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

/** PUT /rest/secure/user_registration/{id}: a reviewer's save of a pending registration (update). */
export const RegistrationUpdateBodySchema = z.object({
  id: BodyIdSchema,
  versionno: bodyIntSchema(0),
  reviewerComments: optional(FIELD_LIMITS.reviewerComments),
  sysaidTicket: optional(FIELD_LIMITS.sysaidTicket),
  portalRoleIds: z.array(BodyIdSchema).max(50).default([]),
  attemptKey: ReviewAttemptKeySchema.optional(),
});
export type RegistrationUpdateBody = z.infer<typeof RegistrationUpdateBodySchema>;

/**
 * DELETE /rest/secure/user_registration/{id}[?versionno=&attemptKey=] (REQUEST-LIFECYCLE rule 6): the version
 * the reviewer deletes and the attempt's key, so a retry after a 202 joins the first attempt. Both optional for
 * older clients (the stored version is deleted); a key needs its version (`versionno: ['required']`).
 */
export const RegistrationDeleteQuerySchema = z
  .object({
    versionno: z
      .string()
      .regex(/^\d{1,10}$/, { message: 'invalid' })
      .transform(Number)
      .pipe(bodyIntSchema(0))
      .optional(),
    attemptKey: ReviewAttemptKeySchema.optional(),
  })
  .refine((q) => q.attemptKey === undefined || q.versionno !== undefined, { path: ['versionno'], message: 'required' });
export type RegistrationDeleteQuery = z.infer<typeof RegistrationDeleteQuerySchema>;

/** The registration part of an approve/deny body: which registration, at which version, with the review fields. */
export const RegistrationActionFormSchema = z.object({
  id: BodyIdSchema,
  versionno: bodyIntSchema(0),
  reviewerComments: optional(FIELD_LIMITS.reviewerComments),
  sysaidTicket: optional(FIELD_LIMITS.sysaidTicket),
});

/** Account types a reviewer may assign (001 §3 Account types). `internal` needs an existing directory entry. */
export const ACCOUNT_TYPES = ['external', 'internal'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = { external: 'External', internal: 'Internal' };

/**
 * PUT /rest/secure/user_registration_action/{approve|deny}[?ignoreValidationWarnings=true] (001 §3
 * Approve/deny action body). Deny reads only `registrationForm`.
 */
export const RegistrationActionBodySchema = z.object({
  registrationForm: RegistrationActionFormSchema,
  portalRoleIds: z.array(BodyIdSchema).max(50).default([]),
  gecos: optional(FIELD_LIMITS.gecos),
  username: optional(FIELD_LIMITS.username),
  useExistingAuthAccount: z.boolean().default(false),
  existingAuthAccountUuid: textSchema(64).optional(),
  accountType: z.enum(ACCOUNT_TYPES).default('external'),
  attemptKey: ReviewAttemptKeySchema.optional(),
});
export type RegistrationActionBody = z.infer<typeof RegistrationActionBodySchema>;

export const RegistrationActionParamsSchema = z.object({ action: z.enum(['approve', 'deny']) });
export const RegistrationActionQuerySchema = z.object({
  ignoreValidationWarnings: z.enum(['true', 'false']).optional(),
});

/** 001 §3 LDAP match: a directory entry found by email or by name. */
export const LdapMatchSchema = z.object({
  uuid: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  gecos: z.string(),
  username: z.string(),
  /** True when a portal user is already linked to the entry (the select disables it, 001 §5). */
  attachedToPortalUserAccount: z.boolean(),
});
export type LdapMatch = z.infer<typeof LdapMatchSchema>;

/** GET /rest/secure/user_management/account_types (001 §3 Account types). */
export const AccountTypesSchema = z.object({
  defaultAccountType: z.object({ id: z.enum(ACCOUNT_TYPES) }),
  assignableAccountTypes: z.array(z.object({ id: z.enum(ACCOUNT_TYPES), name: z.string() })),
});
export type AccountTypes = z.infer<typeof AccountTypesSchema>;

/** Error codes of an approval (001 §8 Approval and rejection). */
export const REGISTRATION_ERRORS = {
  preexistingAccountRequired: 'PREEXISTING_AD_ACCOUNT_REQUIRED',
} as const;

/** The 001 §8 texts of registrations, word for word. */
export const REGISTRATION_MESSAGES = {
  captchaRequired: 'Please complete the CAPTCHA - This is required to submit the form.',
  submissionFailed: 'Registration Submission Failed - Your Portal Gateway registration was NOT submitted.',
  submitted: 'Registration Submitted',
  updated: 'Registration successfully updated.',
  updateFailed: 'Error updating registration.',
  userCreated: 'New User Created',
  rejected: 'Rejection Successful',
  deleted: 'Deleted',
  loadListFailed: 'An error has occurred while loading registrations.',
  loadOwnFailed: 'Problem loading your registration information.',
  loadUserFailed: "Problem loading user's registration information.",
  /** 000 §8: the Requests History's registration-by-proxy table, one's own and a viewed user's. */
  loadOwnProxyFailed: 'Problem retrieving your proxy registration requests.',
  loadUserProxyFailed: "Problem retrieving user's proxy registration requests.",
  deleteFailed: 'Unable to delete user registration.',
  deleteIssue: 'There was an issue deleting this user registration.',
  approveIssue: 'There was an issue approving this request.',
  approveIssueTitle: 'User Creation Failed',
  preexistingAccountRequired:
    'Unable to approve request. An existing Active Directory account is required for this user.',
  fieldsHaveErrors: 'One or more fields contains an error.',
  rejectIssue: 'These was an issue rejecting this request.',
  rejectIssueTitle: 'Rejection Failed',
  internalDomainWarning: 'This user has an email with a non-company domain, but is indicated to be an internal user.',
  portalRoleRequired: 'At least one Portal Role must be selected',
  noPermission: 'You do not have permissions to modify registrations.',
  /** 001 §8: only logged (the review screen falls back to the contract's account types, or shows no roles). */
  loadAccountTypesFailed: 'Problem loading user account types.',
  loadPortalRolesFailed: 'Problem loading user portal roles.',
  reviewTime: '1-3 business days',
  /** The list page's query messages after an action (001 §2.3, §2.4). */
  listUserCreated: 'User created',
  listUserRejected: 'User Rejected',
  listDeleted: 'User Registration Deleted',
} as const;

/**
 * The registration kind's review `payload` (the workflow's update, validated again by the worker's commit):
 * the chosen portal roles on every save, plus the approval's directory choices when approving.
 */
export const RegistrationReviewPayloadSchema = z.object({
  portalRoleIds: z.array(z.number().int().positive()).max(50),
  approval: z
    .object({
      username: z.string().min(1).max(FIELD_LIMITS.username),
      gecos: z.string().max(FIELD_LIMITS.gecos),
      accountType: z.enum(ACCOUNT_TYPES),
      /** The entry to link; null creates a new entry. */
      existingAuthAccountUuid: z.string().min(1).max(64).nullable(),
      ignoreValidationWarnings: z.boolean(),
    })
    .optional(),
  /**
   * The organisation domains the API checked the approval against, so the worker's commit checks the same
   * ones; absent in approvals saved before the domains were configuration (the API checked those already).
   */
  organisationEmailDomains: z.array(z.string().max(253)).max(100).optional(),
});
export type RegistrationReviewPayload = z.infer<typeof RegistrationReviewPayloadSchema>;

/** GET /rest/secure/user_management/ldap/usersForEmail/{email}/ */
export const LdapEmailParamsSchema = z.object({ email: textSchema(FIELD_LIMITS.email, { min: 1 }) });
/** GET /rest/secure/user_management/ldap/usersForPersonName/{lastName}/{firstName}/ */
export const LdapNameParamsSchema = z.object({
  lastName: textSchema(FIELD_LIMITS.lastName, { min: 1 }),
  firstName: textSchema(FIELD_LIMITS.firstName, { min: 1 }),
});

/** GET /rest/secure/user_registration/status/{status}: a status, or 'pending' / 'all' as the queue spells them. */
export const RegistrationListStatusSchema = z.enum(['pending', 'all', ...REGISTRATION_STATUSES]);

/**
 * GET /rest/public/captcha/challenge: a signed ALTCHA proof-of-work challenge (protocol v2, as the `altcha`
 * widget's `challenge` URL expects it). The widget's answer (base64 JSON of challenge and solution) goes into
 * `g-recaptcha-response`.
 */
export const CaptchaChallengeSchema = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallengeSchema>;

/**
 * True when `email`'s domain is one of the organisation domains (the API's ORGANISATION_EMAIL_DOMAINS, 001 §9)
 * or a subdomain of one.
 */
export function isOrganisationEmail(email: string, domains: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** The fieldErrors key of the internal-domain warning (001 §4: reacted to only on this key). */
export const APPROVAL_WARNING_KEY = 'registrationForm.email';

export interface ApprovalChoices {
  portalRoleIds: number[];
  accountType: AccountType;
  existingAuthAccountUuid: string | null;
  ignoreValidationWarnings: boolean;
}

/**
 * The approval's refusals that need no database (001 §4 Approval warning, §5 Approval, §8), checked by the
 * API before it sends the approval and again by the worker's commit:
 * - an `internal` account needs an existing directory entry: globalErrors [PREEXISTING_AD_ACCOUNT_REQUIRED];
 * - at least one portal role: fieldErrors.portalRoleIds;
 * - only when nothing else is wrong and warnings are not ignored: the internal-domain warning on
 *   APPROVAL_WARNING_KEY, against `organisationDomains` (null: the warning is not checked).
 * @returns null when the approval may go ahead.
 */
export function approvalProblems(
  choices: ApprovalChoices,
  email: string,
  organisationDomains: readonly string[] | null,
): { fieldErrors: Record<string, string[]>; globalErrors: string[] } | null {
  const fieldErrors: Record<string, string[]> = {};
  const globalErrors: string[] = [];
  if (choices.accountType === 'internal' && !choices.existingAuthAccountUuid) {
    globalErrors.push(REGISTRATION_ERRORS.preexistingAccountRequired);
  }
  if (choices.portalRoleIds.length === 0) fieldErrors.portalRoleIds = [REGISTRATION_MESSAGES.portalRoleRequired];
  if (globalErrors.length || Object.keys(fieldErrors).length) return { fieldErrors, globalErrors };
  if (
    organisationDomains &&
    choices.accountType === 'internal' &&
    !choices.ignoreValidationWarnings &&
    !isOrganisationEmail(email, organisationDomains)
  ) {
    return { fieldErrors: { [APPROVAL_WARNING_KEY]: [REGISTRATION_MESSAGES.internalDomainWarning] }, globalErrors };
  }
  return null;
}
