import { Button, Fieldset, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGES, REGISTRATION_MESSAGES } from '@portal/contract';
import { useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../../../lib/apiClient';
import { CountedTextarea } from '../../../shared/CountedText';
import { MessageAlert, type PageMessage } from '../../../shared/ErrorAlert';
import { RoleBlock, type RoleBlockValue } from '../../../shared/RoleBlock';
import type { AccessReference } from '../../../shared/useAccessReference';
import {
  blockErrors,
  emptyBlock,
  nextQuestionNum,
  reindexBlockErrors,
  rolesUsedElsewhere,
} from '../../../shared/roleBlockForm';
import { Captcha, type CaptchaHandle } from './Captcha';
import {
  CAPTCHA_PATH,
  COMMENTS_FIELD,
  COMPLETING_FIELDS,
  PERSON_FIELDS,
  registrationErrorsToForm,
  validateRegistration,
  type RegistrationMode,
  type RegistrationValues,
  type TextFieldSpec,
} from './registrationForm';

export type RegistrationReference = AccessReference;

export interface RegistrationFormProps {
  mode: RegistrationMode;
  initialValues: RegistrationValues;
  reference: RegistrationReference;
  /** Files the registration (the page's mutation); rejects with the ApiError of a refusal. */
  submit: (values: RegistrationValues, captcha: string | null) => Promise<unknown>;
  busy: boolean;
  /** Called with the values that were filed. */
  onSubmitted: (values: RegistrationValues) => void;
  /** Shown above the fields (the proxy form's requester banner). */
  header?: ReactNode;
}

type TextField = keyof typeof PERSON_FIELDS | keyof typeof COMPLETING_FIELDS;

/**
 * The registration form of 001 §2.1 (public, with the captcha) and §2.2 (proxy, with the person completing the
 * form): the person's fields, the 'Access Needed' role blocks with 'Add new role' (each study role once, the
 * role's siteRequired / studyRequired / allowAOs / allowLAOs), Comments, every text trimmed on blur (001 §5).
 * Client checks use the contract's schema; a 422 puts the server's messages under their fields, the rest
 * under 'Registration Submission Failed'.
 */
export function RegistrationForm({
  mode,
  initialValues,
  reference,
  submit,
  busy,
  onSubmitted,
  header,
}: RegistrationFormProps) {
  const { studyRoles, systems } = reference;
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  const form = useForm<RegistrationValues>({ initialValues });
  const blocks = form.values.accessControls;

  const textInput = (field: TextField, spec: TextFieldSpec, type = 'text') => (
    <TextInput
      key={field}
      label={spec.optional ? `${spec.label} (optional)` : spec.label}
      required={!spec.optional}
      maxLength={spec.max}
      type={type}
      autoComplete={mode === 'public' ? autoCompleteOf(field) : 'off'}
      disabled={busy}
      {...form.getInputProps(field)}
      onBlur={() => form.setFieldValue(field, form.values[field].trim())}
    />
  );

  const onSubmit = form.onSubmit(async (values) => {
    setMessage(null);
    const errors = validateRegistration(values, mode, captcha, studyRoles, systems);
    if (Object.keys(errors).length) {
      form.setErrors(errors);
      setMessage({ kind: 'error', text: REGISTRATION_MESSAGES.fieldsHaveErrors });
      return;
    }
    try {
      await submit(values, captcha);
      onSubmitted(values);
    } catch (error) {
      // The server may have used up the answer: the visitor solves a fresh one before trying again.
      if (mode === 'public') captchaRef.current?.reset();
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      const { errors: serverErrors, unmatched } = registrationErrorsToForm(fieldErrors);
      form.setErrors(serverErrors);
      const other = error instanceof ApiError ? [...error.globalErrors, ...unmatched] : [];
      if (error instanceof ApiError && !Object.keys(fieldErrors).length && !other.length) other.push(error.message);
      setMessage({ kind: 'error', text: REGISTRATION_MESSAGES.submissionFailed, details: other });
    }
  });

  const setBlock = (index: number, next: RoleBlockValue) => {
    form.setFieldValue(`accessControls.${index}`, next);
    for (const field of ['roleName', 'sites', 'studyNames', 'systemAccessIds']) {
      form.clearFieldError(`accessControls.${index}.${field}`);
    }
  };
  const removeBlock = (index: number) => {
    const errors = reindexBlockErrors(form.errors, index);
    form.removeListItem('accessControls', index);
    form.setErrors(errors as Record<string, string>);
  };
  const allRolesUsed = studyRoles.every((r) => blocks.some((b) => b.roleName === r.roleName));

  return (
    <form onSubmit={onSubmit} noValidate aria-label={mode === 'public' ? 'Registration' : 'Request a User'}>
      <Stack gap="lg">
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        {header}
        <Text size="sm" c="dimmed">
          {MESSAGES.formNote}
        </Text>
        <Fieldset legend={mode === 'public' ? 'Your Information' : 'Information About the User'} disabled={busy}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {textInput('firstName', PERSON_FIELDS.firstName)}
            {textInput('lastName', PERSON_FIELDS.lastName)}
            {textInput('jobTitle', PERSON_FIELDS.jobTitle)}
            {textInput('organizationName', PERSON_FIELDS.organizationName)}
            {textInput('phoneNumber', PERSON_FIELDS.phoneNumber, 'tel')}
            {textInput('phoneExtension', PERSON_FIELDS.phoneExtension, 'tel')}
            {textInput('email', PERSON_FIELDS.email, 'email')}
          </SimpleGrid>
        </Fieldset>
        <Stack gap="sm" component="section" aria-labelledby="access-needed-heading">
          <Title order={2} id="access-needed-heading">
            Access Needed
          </Title>
          {blocks.map((block, index) => (
            <RoleBlock
              key={block.key}
              index={index}
              value={block}
              onChange={(next) => setBlock(index, next)}
              errors={blockErrors(form.errors, index)}
              studyRoles={studyRoles}
              sites={reference.sites}
              studyNames={reference.studyNames}
              systems={systems}
              excludedRoleNames={rolesUsedElsewhere(blocks, index)}
              disabled={busy}
              onRemove={blocks.length > 1 ? () => removeBlock(index) : undefined}
            />
          ))}
          <Group>
            <Button
              variant="light"
              disabled={busy || allRolesUsed}
              onClick={() => form.insertListItem('accessControls', emptyBlock(nextQuestionNum(blocks), systems))}
            >
              Add new role
            </Button>
          </Group>
        </Stack>
        <CountedTextarea
          label={`${COMMENTS_FIELD.label} (optional)`}
          maxLength={COMMENTS_FIELD.max}
          disabled={busy}
          {...form.getInputProps('requesterComments')}
          value={form.values.requesterComments}
          onBlur={() => form.setFieldValue('requesterComments', form.values.requesterComments.trim())}
        />
        {mode === 'proxy' && (
          <Fieldset legend="Person Completing This Form" disabled={busy}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {textInput('personCompletingThisFormFullName', COMPLETING_FIELDS.personCompletingThisFormFullName)}
              {textInput('personCompletingThisFormEmail', COMPLETING_FIELDS.personCompletingThisFormEmail, 'email')}
              {textInput(
                'personCompletingThisFormPhoneNumber',
                COMPLETING_FIELDS.personCompletingThisFormPhoneNumber,
                'tel',
              )}
              {textInput(
                'personCompletingThisFormPhoneExtension',
                COMPLETING_FIELDS.personCompletingThisFormPhoneExtension,
                'tel',
              )}
            </SimpleGrid>
          </Fieldset>
        )}
        {mode === 'public' && (
          <Captcha
            ref={captchaRef}
            error={typeof form.errors[CAPTCHA_PATH] === 'string' ? form.errors[CAPTCHA_PATH] : undefined}
            onChange={(payload) => {
              setCaptcha(payload);
              if (payload) form.clearFieldError(CAPTCHA_PATH);
            }}
          />
        )}
        <Group>
          <Button type="submit" loading={busy}>
            Submit Registration
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Browser autofill hints, on the public form only: there the visitor registers themself. */
function autoCompleteOf(field: TextField): string | undefined {
  const hints: Partial<Record<TextField, string>> = {
    firstName: 'given-name',
    lastName: 'family-name',
    jobTitle: 'organization-title',
    organizationName: 'organization',
    phoneNumber: 'tel',
    email: 'email',
  };
  return hints[field] ?? 'off';
}
