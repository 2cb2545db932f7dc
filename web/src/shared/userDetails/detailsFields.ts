/**
 * The Details fields of a user as a form shows them (000 §2 User detail and Profile: Organization Details and
 * Mailing Address; §5 limits), shared by the user detail's Details tab and the profile's: their values, labels
 * and limits, and a failed save turned into field texts and a page message (000 §4 Saving, §8).
 */
import { FIELD_LIMITS, USER_DETAILS_FIELDS, translateFieldErrors, type UserDetailsFields } from '@portal/contract';
import { ApiError } from '../../lib/apiClient';
import type { PageMessage } from '../ErrorAlert';

/** The form's values of the Details fields (country and state are reference codes, null for none). */
export type DetailsValues = UserDetailsFields;
export type DetailsTextField = Exclude<keyof DetailsValues, 'country' | 'state'>;

/** The Details fields' names (a field error opens the tab that shows it). */
export const DETAILS_FIELDS: ReadonlySet<string> = new Set(USER_DETAILS_FIELDS);

/** The labels the spec's messages use ('{label} {reason}', 000 §5). */
export const DETAILS_FIELD_LABELS: Record<keyof DetailsValues, string> = {
  organizationName: 'Organization Name',
  jobTitle: 'Job Title',
  phoneNumber: 'Phone Number',
  phoneExtension: 'Phone Extension',
  address1: 'Address Line 1',
  address2: 'Address Line 2',
  city: 'City',
  country: 'Country',
  state: 'State',
  postalCode: 'Postal Code',
};

/** Each text field's limit (000 §5 Maximum lengths). */
export const DETAILS_LIMITS: Record<DetailsTextField, number> = {
  organizationName: FIELD_LIMITS.organizationName,
  jobTitle: FIELD_LIMITS.jobTitle,
  phoneNumber: FIELD_LIMITS.phoneNumber,
  phoneExtension: FIELD_LIMITS.phoneExtension,
  address1: FIELD_LIMITS.address,
  address2: FIELD_LIMITS.address,
  city: FIELD_LIMITS.city,
  postalCode: FIELD_LIMITS.postalCode,
};

/**
 * A failed call as a form shows it (000 §4 Saving, §8): 422 field errors under their fields (labels from
 * `labels`, joined with '; ', plural wording for `pluralKeys`), everything else (global errors, unknown keys,
 * 403, network) in the message under `text`.
 */
export function describeFieldFailure(
  error: unknown,
  text: string,
  labels: Record<string, string>,
  pluralKeys: ReadonlySet<string> = new Set(),
) {
  const fieldErrors: Record<string, string> = {};
  const details: string[] = [];
  if (error instanceof ApiError) {
    for (const [key, reasons] of Object.entries(error.fieldErrors)) {
      const label = labels[key];
      if (label) fieldErrors[key] = translateFieldErrors(label, reasons, pluralKeys.has(key));
      else details.push(translateFieldErrors(key, reasons));
    }
    details.push(...error.globalErrors);
    if (error.status !== 422 && error.message) details.push(error.message);
  } else if (error instanceof Error && error.message) {
    details.push(error.message);
  }
  const message: PageMessage = { kind: 'error', text, details };
  return { fieldErrors, message };
}
