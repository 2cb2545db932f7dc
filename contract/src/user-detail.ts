/**
 * The user detail's wire contract (000 §3 User, §5 limits and internal users, §7 user_management GET
 * user/{id}, PUT update_user, PUT activate_user/{id} and deactivate_user/{id}, §8 messages).
 */
import { z } from 'zod';
import { BodyIdSchema } from './ids';
import { FIELD_LIMITS } from './limits';
import { textSchema } from './text';
import { PersonDetailsSchema, UserAccessSchema, UserSiteSchema } from './schemas';
import { UserDetailsFieldsSchema } from './details-fields';
import { SignatureViewSchema } from './signatures';

export * from './details-fields';

/** GET /rest/secure/user_management/user/{id}: the user as the detail screen shows it (000 §3 User). */
export const UserDetailSchema = z.object({
  id: z.number().int(),
  uuid: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  username: z.string(),
  gecos: z.string(),
  accountType: z.string(),
  /** The directory entry's uidNumber (read-only on the Account tab); null without an entry. */
  uidNumber: z.number().int().nullable(),
  ...PersonDetailsSchema.shape,
  state: z.string().nullable(),
  country: z.string().nullable(),
  postalCode: z.string(),
  inactive: z.boolean(),
  portalRoleIds: z.array(z.number().int()),
  siteCodes: z.array(z.string()),
  laoIds: z.array(z.string()),
  sites: z.array(UserSiteSchema),
  userAccesses: z.array(UserAccessSchema),
  /**
   * With SIGNATURES=on only (GET user/{id}): the signed decisions about this person made on the user detail
   * (USER_STATUS, USER_ACCESS_EDIT), newest first, at most USER_SIGNATURES_SHOWN, each verified against the
   * record as stored now (docs/decisions.md "Electronic signatures").
   */
  signatures: z.array(SignatureViewSchema).optional(),
});
export type UserDetail = z.infer<typeof UserDetailSchema>;

/** How many of a person's signed decisions the user detail shows (the newest). */
export const USER_SIGNATURES_SHOWN = 50;

/**
 * PUT /rest/secure/user_management/update_user: the user as body (000 §7). Only the editable fields are read;
 * the rest of the User shape (uuid, accountType, inactive, sites, userAccesses) may be sent back and is
 * ignored. Limits are 000 §5's.
 */
export const UserUpdateBodySchema = z.object({
  id: BodyIdSchema,
  firstName: textSchema(FIELD_LIMITS.firstName, { min: 1 }),
  lastName: textSchema(FIELD_LIMITS.lastName, { min: 1 }),
  email: textSchema(FIELD_LIMITS.email, { min: 1 }).pipe(z.email({ message: 'validEmail' })),
  username: textSchema(FIELD_LIMITS.username, { min: 1 }).regex(/^[A-Za-z0-9._@-]+$/, { message: 'invalid' }),
  gecos: textSchema(FIELD_LIMITS.gecos).default(''),
  ...UserDetailsFieldsSchema.shape,
  portalRoleIds: z.array(BodyIdSchema).max(50).default([]),
});
export type UserUpdateBody = z.input<typeof UserUpdateBodySchema>;

/** The fields 000 §5 locks on an `internal` account for everyone but an administrator; all live in LDAP too. */
export const DIRECTORY_FIELDS = ['firstName', 'lastName', 'email', 'username', 'gecos'] as const;
export type DirectoryField = (typeof DIRECTORY_FIELDS)[number];

/** The account type whose directory fields only an administrator may change (000 §5). */
export const INTERNAL_ACCOUNT_TYPE = 'internal';

/** The user detail's texts (000 §2 User detail, §4 User status and Saving, §8 User access and user management). */
export const USER_DETAIL_MESSAGES = {
  loadFailed: 'Unable to load the specified user.',
  loadUserFailed: 'Problem loading user.',
  updateFailed: 'Unable to update the specified user due to one or more errors.',
  profileRequestOpen:
    "Unable to update the specified user's access because they have an open/unresolved profile-change request.",
  statusFailed: 'Unable to change user status.',
  noChanges: 'There are no changes to submit.',
  accountUpdated: 'User Account Updated',
  detailsUpdated: 'User Details Updated',
  updatedText: 'Successfully updated user',
  statusTitle: 'Change User Status',
  toActive: 'Change to Active',
  toInactive: 'Change to Inactive',
  /** Not in the spec: an administrator cannot lock themself out. */
  ownStatus: 'You cannot change the status of your own account.',
} as const;
