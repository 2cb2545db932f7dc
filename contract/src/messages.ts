import { encodingReasonText } from './text-check';

/**
 * The spec's message catalogue, word for word (000 §8, 001 §8). Both the API and the browser take texts
 * from here so the two never drift.
 */
export const MESSAGES = {
  signIn: {
    credentialsInvalid: 'The username and password provided do not match.',
    accountLocked: 'This account is locked. Please contact User Support.',
    accountDisabled: 'This account is disabled. Please contact User Support.',
    passwordExpired: 'Your password is expired. Please contact User Support to have it reset.',
    unspecifiedFailure: 'An error has occurred. Please contact User Support.',
    lockoutWarning: (n: number) => `Your account will be locked after ${n} more unsuccessful attempts.`,
    pleaseSignIn: 'Please sign in',
    /** Issue 37: a study system asks for a fresh sign-in (`prompt=login`, `max_age`). */
    signInAgain: 'The application asks you to sign in again',
    inactivity: 'You have been signed out due to inactivity',
    notAuthorized: 'You are not authorized to view this page',
    /** 001 §8: the profile's load refused with 401 or 403, with its period (a denied secure page keeps 000's). */
    profileNotAuthorized: 'You are not authorized to view this page.',
  },
  access: {
    atLeastOneSite: 'At least one AO or LAO is required',
    atLeastOneStudy: 'At least one study is required',
    fixedSystemRequired: 'Portal Gateway is a required application',
    requestInProgress:
      "Unable to update the specified user's access because they have an open/unresolved access-change request.",
    newRequestFailed: 'Unable to process new user-access modification request due to one or more errors.',
    reviewFailed: 'Unable to update user-access modification request due to one or more errors.',
    reviewSaved: 'User Access Modification Request Updated',
    // Not in the spec (REQUEST-LIFECYCLE rule 6): a save past the API's deadline, and a concurrent save.
    reviewProcessing: 'Your save is still being processed; retrying is safe.',
    reviewBusy: 'Another save of this request is being processed. Please try again in a moment.',
    submitted: 'Your request was submitted',
    noChanges: 'There are no changes to submit.',
    loadRequestsFailed: 'Problem loading user-access modification request(s).',
    loadUserRequestsFailed: 'Problem loading user requests.',
    loadAccessFailed: "Problem loading user's access.",
    errorSubmitting: (support: string) => `Error submitting. Contact ${support}`,
    requestsNote: 'These are requests and may not reflect the access User Support granted.',
  },
  referenceData: {
    sites: 'Problem retrieving Sites.',
    countries: 'Problem retrieving Countries.',
    states: 'Problem retrieving States.',
    studies: 'Problem retrieving Studies.',
    relations: 'Problem retrieving AO/LAO/Study relationships.',
  },
  tables: { empty: 'No records found', loading: 'Searching' },
  unsavedChanges: {
    title: 'Unsaved Changes',
    text: 'You have unsaved changes on this page',
    /** 001 §2.10: the profile-change review's own words, with the period the other screens' lack. */
    profileChangeReviewText: 'You have unsaved changes on this page.',
    abandon: 'Abandon Changes',
    goBack: 'Go Back',
  },
  formNote: 'All fields are required unless indicated.',
} as const;

/**
 * Server validation keys and their reasons (000 §5). A field error value is either one of these keys,
 * translated as '{field label} {reason}', or a full sentence shown as it is (unknown keys are shown raw).
 */
export const REASONS: Record<string, string> = {
  notEmpty: 'is required',
  null: 'is required',
  notNull: 'is required',
  required: 'is required',
  size: 'is too long',
  valid: 'is invalid',
  invalid: 'is invalid',
  emailValid: 'is invalid',
  validEmail: 'is invalid',
  unique: 'is already in use',
  nonexistent: 'does not exist',
  exists: 'does not exist',
  known: 'is unknown',
  unknown: 'is unknown',
  afterEndDate: 'must be before end date',
  beforeStartDate: 'must be after start date',
  doesntExistInDb: 'already exists in database',
  doesntExistInLdap: 'already exists in LDAP',
  existsInLdap: 'does not exist in LDAP',
  internal: 'is not editable for "internal" users',
  notImage: 'must be an image',
  integer: 'must be an integer',
  nonInteger: 'must be an integer',
  protocolRequired: 'must have a valid protocol',
  invalidDomain: 'has an invalid or missing top-level domain (e.g. ".org")',
  noIndexOrStoryFile: 'is missing an index.html or story.html file in its root folder',
  notCompressedFile: 'is not a recognized compressed file type (e.g. .zip)',
  /** Bare key; with details (`encoding:U+0000:3`) the text also names the character and position (text.ts). */
  encoding: 'contains unrecognized character',
};

/**
 * Turns a field's server messages into display text (000 §5): '{label} {reason}', with 'are' for a
 * plural label, duplicates dropped, unknown keys shown raw, joined with `separator` ('; ' by default).
 */
export function translateFieldErrors(label: string, keys: readonly string[], plural = false, separator = '; '): string {
  const texts = keys.map((key) => {
    const reason = REASONS[key] ?? encodingReasonText(key);
    if (!reason) return key;
    return `${label} ${plural ? reason.replace(/^is /, 'are ') : reason}`;
  });
  return [...new Set(texts)].join(separator);
}
