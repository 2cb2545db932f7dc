import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { REGISTRATION_MESSAGES } from '@portal/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../shared/ErrorAlert';
import { PageLoader } from '../../../shared/PageLoader';
import { usePageTitle } from '../../../shared/usePageTitle';
import { useSubmitPublicRegistration } from '../api/submitPublicRegistration';
import { RegistrationForm } from './RegistrationForm';
import { blankValues, toPublicBody } from './registrationForm';
import { useAccessReference } from '../../../shared/useAccessReference';

const TITLE = 'Register for an Account';

/**
 * The public registration form /register (000 §2 Routes, 001 §1, §2.1), reached from 'Need an account?' on
 * the sign-in page: the public-user banner, 'Sign in' to /, the form with its captcha, and after a successful
 * submit the confirmation with the review time ('1-3 business days').
 */
export function PublicRegistrationPage() {
  usePageTitle(TITLE);
  const { reference, failures } = useAccessReference();
  const [submittedEmail, setSubmittedEmail] = useState<string | null>(null);
  const mutation = useSubmitPublicRegistration();

  let body;
  if (submittedEmail !== null) {
    body = (
      <Alert color="green" title={REGISTRATION_MESSAGES.submitted} role="status" data-testid="registration-submitted">
        <Text size="sm">
          Thank you. Your request for a Portal Gateway account was received and will be reviewed by User Support within{' '}
          {REGISTRATION_MESSAGES.reviewTime}. You will receive an email at {submittedEmail} once it has been reviewed.
        </Text>
      </Alert>
    );
  } else if (failures.length) {
    body = failures.map((f) => <LoadError key={f.text} text={f.text} onRetry={f.retry} />);
  } else if (!reference) {
    body = <PageLoader label="Loading the registration form" />;
  } else {
    body = (
      <RegistrationForm
        mode="public"
        initialValues={blankValues(reference.systems)}
        reference={reference}
        busy={mutation.isPending}
        submit={(values, captcha) => mutation.mutateAsync(toPublicBody(values, captcha))}
        onSubmitted={(values) => setSubmittedEmail(values.email.trim())}
        header={
          <Alert color="blue" title="Public registration" role="note">
            You are submitting this request as a public, non-authenticated user. You need an account to use the Portal
            Gateway; User Support reviews each request, which takes {REGISTRATION_MESSAGES.reviewTime}.
          </Alert>
        }
      />
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>{TITLE}</Title>
      <Text size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to={paths.signIn.href}>
          Sign in
        </Anchor>
      </Text>
      {body}
    </Stack>
  );
}
