import {
  APPROVAL_WARNING_KEY,
  FIELD_LIMITS,
  REGISTRATION_MESSAGES,
  type AccountType,
  type FieldErrors,
  type Registration,
  type RegistrationActionBody,
  type RegistrationUpdateBody,
} from '@portal/contract';
import { serverErrorsToForm, type FieldLabels } from '../../../shared/roleBlockForm';

/**
 * The Review Pending User form (001 §2.4, §3 Registration review form, LDAP form, approve/deny body): its
 * values, the bodies of save, approve and reject, the client check before approving, and the server's 422
 * keys (with or without 'registrationForm.') under their fields.
 */
export interface PendingUserValues {
  reviewerComments: string;
  sysaidTicket: string;
  /** Checkbox values: portal role ids as strings. */
  portalRoleIds: string[];
  /** The chosen directory entry's uuid; '' creates a new directory account. */
  existingUuid: string;
  gecos: string;
  username: string;
  accountType: AccountType;
}

export const PENDING_USER_LABELS: FieldLabels = {
  reviewerComments: { label: 'Reviewer Comments', plural: true },
  sysaidTicket: { label: 'External Ticket #' },
  portalRoleIds: { label: 'Portal Roles', plural: true },
  existingUuid: { label: 'Directory Account' },
  gecos: { label: 'Gecos' },
  username: { label: 'Username' },
  accountType: { label: 'Account Type' },
};

/** Server keys of the approve body that name a form field under another name. */
const KEY_ALIASES: Record<string, string> = {
  existingAuthAccountUuid: 'existingUuid',
  useExistingAuthAccount: 'existingUuid',
};

/** A suggested username for a new directory account: first initial and last name, letters and digits only. */
export function suggestedUsername(firstName: string, lastName: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  return `${clean(firstName).slice(0, 1)}${clean(lastName)}`.slice(0, FIELD_LIMITS.username);
}

export function initialValues(registration: Registration, defaultAccountType: AccountType): PendingUserValues {
  return {
    reviewerComments: registration.reviewerComments ?? '',
    sysaidTicket: registration.sysaidTicket ?? '',
    portalRoleIds: registration.portalRoleIds.map(String),
    existingUuid: '',
    gecos: `${registration.firstName} ${registration.lastName}`.trim().slice(0, FIELD_LIMITS.gecos),
    username: suggestedUsername(registration.firstName, registration.lastName),
    accountType: defaultAccountType,
  };
}

const ids = (values: PendingUserValues) => values.portalRoleIds.map(Number).filter((n) => Number.isInteger(n));

/** PUT /rest/secure/user_registration/{id}: the reviewer's part of the registration (update). */
export function toUpdateBody(registration: Registration, values: PendingUserValues, attemptKey: string) {
  return {
    id: registration.id,
    versionno: registration.versionno,
    reviewerComments: values.reviewerComments.trim(),
    sysaidTicket: values.sysaidTicket.trim(),
    portalRoleIds: ids(values),
    attemptKey,
  } satisfies RegistrationUpdateBody;
}

/** The approve/deny body (001 §3); deny reads only `registrationForm`. */
export function toActionBody(
  registration: Registration,
  values: PendingUserValues,
  attemptKey: string,
): RegistrationActionBody {
  const existing = values.existingUuid !== '';
  return {
    registrationForm: {
      id: registration.id,
      versionno: registration.versionno,
      reviewerComments: values.reviewerComments.trim(),
      sysaidTicket: values.sysaidTicket.trim(),
    },
    portalRoleIds: ids(values),
    gecos: values.gecos.trim(),
    username: values.username.trim(),
    useExistingAuthAccount: existing,
    ...(existing ? { existingAuthAccountUuid: values.existingUuid } : {}),
    accountType: values.accountType,
    attemptKey,
  };
}

/** 001 §5 Approval: at least one portal role. */
export function validateApproval(values: PendingUserValues): Record<string, string> {
  return values.portalRoleIds.length === 0 ? { portalRoleIds: REGISTRATION_MESSAGES.portalRoleRequired } : {};
}

/** Server field errors of a save or an action as form errors; keys the form does not show in `unmatched`. */
export function pendingUserErrorsToForm(fieldErrors: FieldErrors) {
  const renamed: FieldErrors = {};
  for (const [key, reasons] of Object.entries(fieldErrors)) {
    const bare = key.replace(/^registrationForm\./, '');
    renamed[KEY_ALIASES[bare] ?? key] = reasons;
  }
  return serverErrorsToForm(renamed, PENDING_USER_LABELS, ['registrationForm.']);
}

/**
 * 001 §4 Approval warning: reacted to only when the one error is the internal-domain warning on the
 * registration's email key and there is no other error (the same key also carries 'Email address already
 * exists in database', which is a refusal, not a warning).
 */
export function isInternalDomainWarning(fieldErrors: FieldErrors, globalErrors: readonly string[]): boolean {
  const keys = Object.keys(fieldErrors);
  return (
    globalErrors.length === 0 &&
    keys.length === 1 &&
    keys[0] === APPROVAL_WARNING_KEY &&
    fieldErrors[APPROVAL_WARNING_KEY]!.every((r) => r === REGISTRATION_MESSAGES.internalDomainWarning)
  );
}
