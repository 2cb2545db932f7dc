/**
 * The user detail's form model (000 §3 User, §5 limits, §8): the values a user loads into, the body a save
 * sends, the spec's field labels, and a failed call turned into field texts and a page message.
 */
import {
  DIRECTORY_FIELDS,
  GLOBAL_ERRORS,
  INTERNAL_ACCOUNT_TYPE,
  USER_DETAIL_MESSAGES,
  type UserDetail,
  type UserUpdateBody,
} from '@portal/contract';
import { ApiError } from '../lib/apiClient';
import { DETAILS_FIELDS, DETAILS_FIELD_LABELS, describeFieldFailure } from '../shared/userDetails/detailsFields';

export interface UserFormValues {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  gecos: string;
  organizationName: string;
  jobTitle: string;
  phoneNumber: string;
  phoneExtension: string;
  address1: string;
  address2: string;
  city: string;
  country: string | null;
  state: string | null;
  postalCode: string;
  /** Checkbox values: the role ids as strings. */
  portalRoleIds: string[];
}

/** The form's values of a loaded user. */
export const valuesOf = (u: UserDetail): UserFormValues => ({
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  username: u.username,
  gecos: u.gecos,
  organizationName: u.organizationName,
  jobTitle: u.jobTitle,
  phoneNumber: u.phoneNumber,
  phoneExtension: u.phoneExtension,
  address1: u.address1,
  address2: u.address2,
  city: u.city,
  country: u.country,
  state: u.state,
  postalCode: u.postalCode,
  portalRoleIds: u.portalRoleIds.map(String),
});

/** The update_user body: the user with the form's values. */
export const bodyOf = (u: UserDetail, v: UserFormValues): UserUpdateBody => ({
  ...v,
  id: u.id,
  portalRoleIds: v.portalRoleIds.map(Number),
});

/** 000 §5: an internal account's directory fields are read-only for everyone but an administrator. */
export const lockedFields = (u: UserDetail, isAdmin: boolean): ReadonlySet<string> =>
  new Set(u.accountType === INTERNAL_ACCOUNT_TYPE && !isAdmin ? DIRECTORY_FIELDS : []);

/** The labels the spec's messages use ('{label} {reason}', 000 §5); the Details fields' are shared. */
export const USER_FIELD_LABELS: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  username: 'Username',
  gecos: 'Gecos',
  ...DETAILS_FIELD_LABELS,
  portalRoleIds: 'Portal Roles',
};

/** The Details tab's fields (the rest are the Account tab's): a field error opens the tab that shows it. */
export { DETAILS_FIELDS };

/**
 * A failed call as the page shows it (000 §4 Saving, §8): 422 field errors under their fields (joined with
 * '; '), everything else (global errors, unknown keys, 403, network) in the message under `text`. The global
 * error REQUEST_IN_PROGRESS (an open profile-change request) is told with its 000 §8 sentence instead.
 */
export const describeUserFailure = (error: unknown, text: string) => {
  if (error instanceof ApiError && error.hasGlobalError(GLOBAL_ERRORS.requestInProgress)) {
    return { fieldErrors: {}, message: { kind: 'error' as const, text: USER_DETAIL_MESSAGES.profileRequestOpen } };
  }
  return describeFieldFailure(error, text, USER_FIELD_LABELS, new Set(['portalRoleIds']));
};
