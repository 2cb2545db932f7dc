/**
 * The profile-change requests' wire contract (001 §2.10, §3 Profile-change request, §4 Request statuses, §5
 * limits, §7 Profile-change requests, §8; 000 §5 "one outstanding profile request"). A signed-in user asks to
 * change their first name, last name and/or email; a reviewer with WRITE_USERS moves the request through the
 * statuses of 001 §4 (the access-change table); saved as APPROVED, the name and email are applied to the
 * directory entry and the portal user. Shared by the API (route schemas) and the browser (forms, texts).
 */
import { z } from 'zod';
import { BodyIdSchema, bodyIntSchema } from '../ids';
import { FIELD_LIMITS } from '../limits';
import { type Page, ReviewAttemptKeySchema } from '../schemas';
import { REQUEST_STATUSES } from '../statuses';
import { textSchema } from '../text';
import { SignatureViewSchema } from '../signatures';

/** Every call's base path (001 §7 Profile-change requests). */
export const PROFILE_CHANGE_BASE = '/rest/secure/ldap_user_profile_mod_request';

const emailSchema = textSchema(FIELD_LIMITS.email, { min: 1 }).pipe(z.email({ message: 'validEmail' }));

/**
 * POST /rest/secure/ldap_user_profile_mod_request (001 §7: "create; body includes sysaidTicket"): the names and
 * email the user asks for, with their comments. `portalUserId`, when sent, must be the caller's own (403
 * otherwise); `requestStatus` can only be NEW (001 §4 "a created request starts with requestStatus NEW").
 * Names and email are trimmed (001 §5 "trimmed ... on save (profile change)").
 */
export const CreateProfileChangeBodySchema = z.object({
  portalUserId: BodyIdSchema.optional(),
  firstName: textSchema(FIELD_LIMITS.firstName, { min: 1 }),
  lastName: textSchema(FIELD_LIMITS.lastName, { min: 1 }),
  email: emailSchema,
  requestStatus: z.literal('NEW').default('NEW'),
  requesterComments: textSchema(FIELD_LIMITS.requesterComments).default(''),
  sysaidTicket: textSchema(FIELD_LIMITS.sysaidTicket).default(''),
});
export type CreateProfileChangeBody = z.input<typeof CreateProfileChangeBodySchema>;

/** A profile-change request as every call answers it (001 §3 Profile-change request). */
export const ProfileChangeRequestSchema = z.object({
  id: z.number().int(),
  portalUserId: z.number().int(),
  /** The requested values. */
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** The values when the request was filed. */
  originalFirstName: z.string(),
  originalLastName: z.string(),
  originalEmail: z.string(),
  /** The user's username (the review screen names whose request it is). */
  username: z.string(),
  requestStatus: z.enum(REQUEST_STATUSES),
  requesterComments: z.string(),
  reviewerComments: z.string(),
  sysaidTicket: z.string(),
  sysdat: z.string(),
  dchng: z.string(),
  lastModifiedBy: z.string(),
  inactive: z.boolean(),
  versionno: z.number().int(),
  /** Statuses a reviewer may save this request with (statuses.allowedNextStatuses). */
  allowedNextStatuses: z.array(z.enum(REQUEST_STATUSES)),
  workflowId: z.string(),
  /** Link to the request's workflow in the Temporal Web UI, when configured. */
  workflowUrl: z.string().nullable(),
  /** The decision's electronic signatures, oldest first; present only when SIGNATURES=on. */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type ProfileChangeRequest = z.infer<typeof ProfileChangeRequestSchema>;

/**
 * The lists (GET /, /user, /user/{userId}, /status/{status}): 'Lists in content' (001 §7), inside the page
 * envelope of every paged list (query FetchPageQuerySchema; newest first).
 */
export type ProfileChangeList = Page<ProfileChangeRequest>;

/** GET .../status/{status}: one status, or 'pending' (every unresolved one) / 'all' as the queue spells them. */
export const ProfileChangeStatusParamsSchema = z.object({ status: z.enum(['pending', 'all', ...REQUEST_STATUSES]) });

/**
 * PUT /rest/secure/ldap_user_profile_mod_request/{id}: a reviewer's save (001 §2.10: request status, reviewer
 * comments, external ticket number) at the version read, with the browser's attempt key (REQUEST-LIFECYCLE rule
 * 6). The body's id must be the path's.
 */
export const UpdateProfileChangeBodySchema = z.object({
  id: BodyIdSchema,
  versionno: bodyIntSchema(0),
  requestStatus: z.enum(REQUEST_STATUSES),
  reviewerComments: textSchema(FIELD_LIMITS.reviewerComments).default(''),
  sysaidTicket: textSchema(FIELD_LIMITS.sysaidTicket).default(''),
  attemptKey: ReviewAttemptKeySchema.optional(),
});
export type UpdateProfileChangeBody = z.input<typeof UpdateProfileChangeBodySchema>;

/** The fields a profile-change request changes, in the order the screens show them. */
export const PROFILE_CHANGE_FIELDS = ['firstName', 'lastName', 'email'] as const;

/** Texts of profile-change requests: 001 §8 word for word, and the few the spec does not word (marked). */
export const PROFILE_CHANGE_MESSAGES = {
  loadFailed: 'Problem loading profile-change request.',
  submitFailed: 'Unable to submit request to update your name and/or email due to one or more errors.',
  reviewFailed: "Unable to update user's profile-change request due to one or more errors.",
  /** 001 §8 LDAP profile modification, email already used: the value of fieldErrors.email. */
  emailInUse: 'Email address already exists in database',
  submitted: 'Your request was submitted',
  noChanges: 'There are no changes to submit.',
  // Not worded in the spec:
  reviewSaved: 'Profile-Change Request Updated',
  outstanding:
    'You have an outstanding request to change your name and/or email. User Support will review it; you cannot submit another until it is resolved.',
  noPermission: 'You do not have permission to modify profile-change requests.',
  requestHint: 'Changes to your name and email are requested, not applied: User Support reviews and approves them.',
} as const;

/** The review screen's title (001 §2.10: not worded in the spec). */
export const PROFILE_CHANGE_REVIEW_TITLE = 'Review Profile-Change Request';
