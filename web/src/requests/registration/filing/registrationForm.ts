import {
  CAPTCHA_KEYS,
  FIELD_LIMITS,
  ProxyRegistrationBodySchema,
  PublicRegistrationBodySchema,
  REGISTRATION_MESSAGES,
  translateFieldErrors,
  zodToFieldErrors,
  type FieldErrors,
  type ProxyRegistrationBody,
  type PublicRegistrationBody,
  type StudyRole,
  type System,
} from '@portal/contract';
import type { RoleBlockValue } from '../../../shared/RoleBlock';
import {
  copyBlock,
  emptyBlock,
  serverErrorsToForm,
  toAccessControl,
  validateBlocks,
  type FieldLabels,
} from '../../../shared/roleBlockForm';

/**
 * The registration form's values and rules (001 §2.1 public, §2.2 proxy, §3 Registration, §5): fields with
 * their labels and limits, the role blocks (extendedQuestionAnswers in the form, accessControls on the wire),
 * the body of each call, client checks with the contract's own schemas, and the server's 422 keys (with or
 * without 'registrationForm.', the captcha under any of its key spellings) placed under their fields.
 */

export type RegistrationMode = 'public' | 'proxy';

export interface RegistrationValues {
  firstName: string;
  lastName: string;
  jobTitle: string;
  organizationName: string;
  phoneNumber: string;
  phoneExtension: string;
  email: string;
  accessControls: RoleBlockValue[];
  requesterComments: string;
  /** Proxy form only (001 §2.2): the person completing the form, all optional. */
  personCompletingThisFormFullName: string;
  personCompletingThisFormEmail: string;
  personCompletingThisFormPhoneNumber: string;
  personCompletingThisFormPhoneExtension: string;
}

type TextField = Exclude<keyof RegistrationValues, 'accessControls'>;

/** A text field's label, limit and whether it may stay empty ('(optional)' in its label). */
export interface TextFieldSpec {
  label: string;
  max: number;
  optional?: boolean;
  plural?: boolean;
}

/** 001 §2.1 fields with the 001 §5 limits. */
export const PERSON_FIELDS = {
  firstName: { label: 'First Name', max: FIELD_LIMITS.firstName },
  lastName: { label: 'Last Name', max: FIELD_LIMITS.lastName },
  jobTitle: { label: 'Job Title', max: FIELD_LIMITS.jobTitle },
  organizationName: { label: 'Organization Name', max: FIELD_LIMITS.organizationName },
  phoneNumber: { label: 'Phone Number', max: FIELD_LIMITS.phoneNumber },
  phoneExtension: { label: 'Phone Extension', max: FIELD_LIMITS.phoneExtension, optional: true },
  email: { label: 'Email Address', max: FIELD_LIMITS.email },
} as const satisfies Partial<Record<TextField, TextFieldSpec>>;

/** 001 §2.2: the person completing the proxy form. */
export const COMPLETING_FIELDS = {
  personCompletingThisFormFullName: {
    label: 'Full Name',
    max: FIELD_LIMITS.firstName + FIELD_LIMITS.lastName + 1,
    optional: true,
  },
  personCompletingThisFormEmail: { label: 'Email Address', max: FIELD_LIMITS.email, optional: true },
  personCompletingThisFormPhoneNumber: { label: 'Phone Number', max: FIELD_LIMITS.phoneNumber, optional: true },
  personCompletingThisFormPhoneExtension: {
    label: 'Phone Extension',
    max: FIELD_LIMITS.phoneExtension,
    optional: true,
  },
} as const satisfies Partial<Record<TextField, TextFieldSpec>>;

export const COMMENTS_FIELD = {
  label: 'Comments',
  max: FIELD_LIMITS.requesterComments,
  optional: true,
  plural: true,
} as const satisfies TextFieldSpec;

/** The form path of the captcha's error (the widget is not a form field). */
export const CAPTCHA_PATH = 'captcha';

const LABELS: FieldLabels = Object.fromEntries(
  Object.entries({ ...PERSON_FIELDS, ...COMPLETING_FIELDS, requesterComments: COMMENTS_FIELD }).map(([field, spec]) => [
    field,
    { label: spec.label, plural: 'plural' in spec ? spec.plural : false },
  ]),
);
/** Server keys may carry this prefix or not (001 §5). */
const PREFIXES = ['registrationForm.'];

/** A blank form with one empty role block. */
export function blankValues(systems: readonly System[]): RegistrationValues {
  return {
    firstName: '',
    lastName: '',
    jobTitle: '',
    organizationName: '',
    phoneNumber: '',
    phoneExtension: '',
    email: '',
    accessControls: [emptyBlock(1, systems)],
    requesterComments: '',
    personCompletingThisFormFullName: '',
    personCompletingThisFormEmail: '',
    personCompletingThisFormPhoneNumber: '',
    personCompletingThisFormPhoneExtension: '',
  };
}

/**
 * 'Submit A Similar Request' (001 §2.2): the non-personal data stays (organization, the role blocks, the
 * comments and the person completing the form, who files the next one too); the registered person's name,
 * job title, phone and email are cleared.
 */
export function similarValues(previous: RegistrationValues, systems: readonly System[]): RegistrationValues {
  return {
    ...blankValues(systems),
    organizationName: previous.organizationName,
    accessControls: previous.accessControls.map(copyBlock),
    requesterComments: previous.requesterComments,
    personCompletingThisFormFullName: previous.personCompletingThisFormFullName,
    personCompletingThisFormEmail: previous.personCompletingThisFormEmail,
    personCompletingThisFormPhoneNumber: previous.personCompletingThisFormPhoneNumber,
    personCompletingThisFormPhoneExtension: previous.personCompletingThisFormPhoneExtension,
  };
}

/** The fields every registration sends, trimmed. */
function commonBody(values: RegistrationValues) {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    jobTitle: values.jobTitle.trim(),
    organizationName: values.organizationName.trim(),
    phoneNumber: values.phoneNumber.trim(),
    phoneExtension: values.phoneExtension.trim(),
    email: values.email.trim(),
    accessControls: values.accessControls.map(toAccessControl),
    requesterComments: values.requesterComments.trim(),
  };
}

/** POST /rest/public/user_registration body: the captcha answer under the spec's key (001 §3, §5). */
export function toPublicBody(values: RegistrationValues, captcha: string | null): PublicRegistrationBody {
  return { ...commonBody(values), 'g-recaptcha-response': captcha ?? '' };
}

/** POST /rest/secure/user_registration body (001 §2.2): with the person completing the form. */
export function toProxyBody(values: RegistrationValues): ProxyRegistrationBody {
  return {
    ...commonBody(values),
    personCompletingThisFormFullName: values.personCompletingThisFormFullName.trim(),
    personCompletingThisFormEmail: values.personCompletingThisFormEmail.trim(),
    personCompletingThisFormPhoneNumber: values.personCompletingThisFormPhoneNumber.trim(),
    personCompletingThisFormPhoneExtension: values.personCompletingThisFormPhoneExtension.trim(),
  };
}

/**
 * 422 field errors (the server's, or the contract schema's on the client) as form errors: person fields and
 * blocks under their fields, every captcha key spelling under the widget with the spec's text when the answer
 * is missing (001 §5 'Please complete the CAPTCHA ...'), anything else in `unmatched`.
 */
export function registrationErrorsToForm(fieldErrors: FieldErrors): {
  errors: Record<string, string>;
  unmatched: string[];
} {
  const captcha: string[] = [];
  const rest: FieldErrors = {};
  for (const [key, reasons] of Object.entries(fieldErrors)) {
    const bare = PREFIXES.reduce((k, p) => (k.startsWith(p) ? k.slice(p.length) : k), key);
    if ((CAPTCHA_KEYS as readonly string[]).includes(bare)) {
      captcha.push(
        ...reasons.map((r) =>
          ['required', 'notEmpty', 'null', 'notNull'].includes(r)
            ? REGISTRATION_MESSAGES.captchaRequired
            : translateFieldErrors('CAPTCHA', [r]),
        ),
      );
    } else {
      rest[key] = reasons;
    }
  }
  const { errors, unmatched } = serverErrorsToForm(rest, LABELS, PREFIXES);
  if (captcha.length) errors[CAPTCHA_PATH] = [...new Set(captcha)].join('; ');
  return { errors, unmatched };
}

/**
 * Client checks before sending (001 §5): the body is parsed with the contract's schema (required fields,
 * limits, email and phone formats), the blocks with the role rules; the captcha must be solved on the public
 * form. Keys are form paths with their translated messages.
 */
export function validateRegistration(
  values: RegistrationValues,
  mode: RegistrationMode,
  captcha: string | null,
  studyRoles: readonly StudyRole[],
  systems: readonly System[],
): Record<string, string> {
  const parsed =
    mode === 'public'
      ? PublicRegistrationBodySchema.safeParse(toPublicBody(values, captcha))
      : ProxyRegistrationBodySchema.safeParse(toProxyBody(values));
  const fromSchema = parsed.success ? {} : registrationErrorsToForm(zodToFieldErrors(parsed.error)).errors;
  // The role rules say more than the schema's 'Study Role is required' (siteRequired, studyRequired, once).
  const fromBlocks = validateBlocks(values.accessControls, studyRoles, systems);
  const errors: Record<string, string> = { ...fromSchema, ...fromBlocks };
  if (mode === 'public' && !captcha) errors[CAPTCHA_PATH] = REGISTRATION_MESSAGES.captchaRequired;
  return errors;
}
