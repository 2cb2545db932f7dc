import { Alert, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import {
  CreateProfileChangeBodySchema,
  FIELD_LIMITS,
  GLOBAL_ERRORS,
  INTERNAL_ACCOUNT_TYPE,
  PROFILE_CHANGE_MESSAGES,
  REQUEST_STATUS_LABELS,
  translateFieldErrors,
  zodToFieldErrors,
  type FieldErrors,
  type Profile,
} from '@portal/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/apiClient';
import { CountedTextarea, CountedTextInput } from '../../../shared/CountedText';
import { MessageAlert, type PageMessage } from '../../../shared/ErrorAlert';
import { formatDateTime } from '../../../shared/format';
import { FormActions, resetFormAndMessage } from '../../../shared/FormActions';
import { useUnsavedChanges } from '../../../shared/UnsavedChanges';
import { useOutstandingProfileChange, useSubmitProfileChange } from '../api/ownProfileChange';

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  requesterComments: string;
}

const LABELS: Record<keyof Values, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  requesterComments: 'Comments',
};

/**
 * The Account tab's name and email (000 §2 Profile; 001 §2.10 submission, 'Submitted By: Self'): changes are
 * requested, not applied. Submitting files a profile-change request (POST .../ldap_user_profile_mod_request) that
 * User Support reviews; the form is disabled while one is outstanding (000 §5) and for internal accounts (locked
 * fields). Values are trimmed on save (001 §5); 422 errors show by field (REQUEST_IN_PROGRESS as the outstanding
 * text), 304 'There are no changes to submit.', other failures the 001 §8 text.
 */
export function NameEmailRequest({ profile }: { profile: Profile }) {
  const requests = useOutstandingProfileChange();
  const { outstanding } = requests;
  const internal = profile.accountType === INTERNAL_ACCOUNT_TYPE;
  const [message, setMessage] = useState<PageMessage | null>(null);
  const form = useForm<Values>({
    initialValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email,
      requesterComments: '',
    },
  });
  const disabled = !!outstanding || internal || requests.isPending;
  const guard = useUnsavedChanges(!disabled && form.isDirty());

  const showFieldErrors = (errors: FieldErrors): string[] => {
    const byField: Record<string, string> = {};
    const others: string[] = [];
    for (const [key, reasons] of Object.entries(errors)) {
      if (key in LABELS) byField[key] = translateFieldErrors(LABELS[key as keyof Values], reasons);
      else others.push(translateFieldErrors(key, reasons));
    }
    form.setErrors(byField);
    return others;
  };

  const submit = useSubmitProfileChange({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (answer) => {
        if (answer.status === 304) {
          setMessage({ kind: 'info', text: PROFILE_CHANGE_MESSAGES.noChanges });
          return;
        }
        notifications.show({ color: 'green', title: 'Request submitted', message: PROFILE_CHANGE_MESSAGES.submitted });
        form.reset();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.hasGlobalError(GLOBAL_ERRORS.requestInProgress)) {
          void requests.refetch();
          setMessage({ kind: 'warning', text: PROFILE_CHANGE_MESSAGES.outstanding });
          return;
        }
        const details = error instanceof ApiError ? [...showFieldErrors(error.fieldErrors), ...error.globalErrors] : [];
        setMessage({ kind: 'error', text: PROFILE_CHANGE_MESSAGES.submitFailed, details });
      },
    },
  });

  const onSubmit = form.onSubmit((values) => {
    const parsed = CreateProfileChangeBodySchema.safeParse(values);
    if (!parsed.success) {
      showFieldErrors(zodToFieldErrors(parsed.error));
      setMessage({ kind: 'error', text: PROFILE_CHANGE_MESSAGES.submitFailed });
      return;
    }
    const { firstName, lastName, email, requesterComments } = parsed.data;
    form.setValues({ firstName, lastName, email, requesterComments });
    submit.mutate({ portalUserId: profile.portalUserId, firstName, lastName, email, requesterComments });
  });

  const input = (field: Exclude<keyof Values, 'requesterComments'>, max: number, type = 'text') => (
    <CountedTextInput
      label={LABELS[field]}
      type={type}
      maxLength={max}
      readOnly={disabled}
      variant={disabled ? 'filled' : 'default'}
      autoComplete={field === 'email' ? 'email' : field === 'firstName' ? 'given-name' : 'family-name'}
      {...form.getInputProps(field)}
      value={form.values[field]}
    />
  );

  return (
    <Stack gap="sm" component="section" aria-labelledby="name-email-heading">
      {guard.dialog}
      <Title order={3} id="name-email-heading">
        Name and Email
      </Title>
      <Text size="sm" c="dimmed">
        {internal
          ? 'Your name and email are managed by your organisation and cannot be changed here.'
          : PROFILE_CHANGE_MESSAGES.requestHint}
      </Text>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {outstanding && (
        <Alert color="yellow" variant="light" title="Your outstanding request" data-testid="outstanding-request">
          {formatDateTime(outstanding.sysdat)}: {outstanding.firstName} {outstanding.lastName}, {outstanding.email} (
          {REQUEST_STATUS_LABELS[outstanding.requestStatus]})
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate aria-labelledby="name-email-heading">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {input('firstName', FIELD_LIMITS.firstName)}
            {input('lastName', FIELD_LIMITS.lastName)}
            {input('email', FIELD_LIMITS.email, 'email')}
          </SimpleGrid>
          {!disabled && (
            <>
              <CountedTextarea
                label={`${LABELS.requesterComments} (optional)`}
                maxLength={FIELD_LIMITS.requesterComments}
                {...form.getInputProps('requesterComments')}
                value={form.values.requesterComments}
              />
              <FormActions
                label="Submit Request"
                pending={submit.isPending}
                onReset={resetFormAndMessage(form, setMessage)}
              />
            </>
          )}
        </Stack>
      </form>
    </Stack>
  );
}
