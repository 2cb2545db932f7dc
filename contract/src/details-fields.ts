/**
 * The Details fields of a user (000 §2 User detail and Profile screen: Organization Details and Mailing
 * Address; §3 User and Profile; §5 limits), saved by the user detail's update_user and by the profile's
 * PUT user_profile_mod (000 §7, §4 Saving, §8), and the profile's texts for that save. Name and email are not
 * among them: on the profile those are requested through a profile-change request (001 §2.10).
 */
import { z } from 'zod';
import { FIELD_LIMITS } from './limits';
import { textSchema } from './text';

/**
 * Every Details field must be sent ('' or null for none): a save replaces all of them, so a missing one is
 * 'required', never read as empty (issue 21: a body of `null` or `{}` used to erase every field).
 */
const optional = (max: number) => textSchema(max);
/** Phone numbers: digits and the usual separators only, as on the registration form. */
const phone = (max: number, min = 0) => textSchema(max, { min }).regex(/^[0-9+()\-. ]*$/, { message: 'invalid' });
/** A code of the reference lists, or none ('' and null both mean none). */
const code = (max: number) =>
  textSchema(max)
    .nullable()
    .transform((v) => (v ? v : null));

/**
 * The Details fields (000 §2 User detail and Profile: Organization Details and Mailing Address; 000 §5
 * limits): the part of a user that the user detail's update_user and the profile's user_profile_mod both
 * save. Country and state are codes of the reference lists ('' and null both mean none).
 */
export const UserDetailsFieldsSchema = z.object({
  organizationName: optional(FIELD_LIMITS.organizationName),
  jobTitle: optional(FIELD_LIMITS.jobTitle),
  phoneNumber: phone(FIELD_LIMITS.phoneNumber),
  phoneExtension: phone(FIELD_LIMITS.phoneExtension),
  address1: optional(FIELD_LIMITS.address),
  address2: optional(FIELD_LIMITS.address),
  city: optional(FIELD_LIMITS.city),
  country: code(2),
  state: code(8),
  postalCode: optional(FIELD_LIMITS.postalCode),
});
export type UserDetailsFields = z.output<typeof UserDetailsFieldsSchema>;
/** The Details fields' names, in the order the tab shows them (a field error opens the tab that shows it). */
export const USER_DETAILS_FIELDS = Object.keys(UserDetailsFieldsSchema.shape) as (keyof UserDetailsFields)[];

/** The profile carries country and state as objects (000 §3 Profile); the body may send either form. */
/**
 * The code of a profile's `{ country, countryName }` / `{ state, stateName }` object; anything else (a code,
 * null, or a value of the wrong shape: an array, an object without the key) is left for the schema to judge,
 * so a wrong shape is 'invalid' rather than read as no code (issue 21).
 */
const codeOf = (key: 'country' | 'state') => (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && key in value
    ? (value as Record<string, unknown>)[key]
    : value;

/**
 * PUT /rest/secure/user_profile_mod body: the profile (000 §7). Only the Details fields are read (limits of
 * 000 §5, the same schema as the user detail's update_user); the rest of the profile (name, email, roles,
 * userAccesses with their site lists) may be sent back and is ignored. `country` and `state` are codes, or
 * the profile's objects `{ country, countryName }` / `{ state, stateName }`.
 */
export const ProfileDetailsBodySchema = UserDetailsFieldsSchema.extend({
  country: z.preprocess(codeOf('country'), UserDetailsFieldsSchema.shape.country),
  state: z.preprocess(codeOf('state'), UserDetailsFieldsSchema.shape.state),
});
export type ProfileDetailsBody = z.input<typeof ProfileDetailsBodySchema>;

/** The Details tab's texts (000 §4 Saving, §8; 001 §8 Success messages). */
export const PROFILE_DETAILS_MESSAGES = {
  updateFailed: 'Unable to update your profile due to one or more errors.',
  updated: 'User Profile Updated',
  noChanges: 'There are no changes to submit.',
} as const;
