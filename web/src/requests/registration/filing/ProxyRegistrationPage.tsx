import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { REGISTRATION_MESSAGES, type Profile } from '@portal/contract';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useProfile } from '../../../lib/sessionQueries';
import { LoadError } from '../../../shared/ErrorAlert';
import { orMissing } from '../../../shared/format';
import { PageLoader } from '../../../shared/PageLoader';
import { usePageTitle } from '../../../shared/usePageTitle';
import { useSubmitProxyRegistration } from '../api/submitProxyRegistration';
import { RegistrationForm } from './RegistrationForm';
import { blankValues, similarValues, toProxyBody, type RegistrationValues } from './registrationForm';
import { useAccessReference } from '../../../shared/useAccessReference';

const TITLE = 'Request a User';

/** 001 §2.2: the known requester from the profile, read-only ('---' for a value the profile leaves empty). */
function RequesterBanner({ profile }: { profile: Profile }) {
  const field = (label: string, value: string | undefined) => (
    <TextInput label={label} value={orMissing(value)} readOnly variant="filled" />
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="requester-heading">
      <Title order={2} id="requester-heading" mb="xs">
        Requester
      </Title>
      <Text size="sm" mb="sm">
        You are requesting an account for another person. User Support will contact you about this request.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {field('Requester Name', `${profile.firstName} ${profile.lastName}`.trim())}
        {field('Requester Email', profile.email)}
        {field('Requester Phone', profile.phoneNumber)}
        {field('Requester Phone Extension', profile.phoneExtension)}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * 'Request a User' /app/proxy-registration (001 §2.2): the registration form without captcha, filed for
 * someone else, with the requester banner and the person completing the form. The form is blank on every
 * entry; after a submit 'Submit A Similar Request' keeps the non-personal data, 'Submit New Request' starts
 * blank.
 */
export function ProxyRegistrationPage() {
  usePageTitle(TITLE);
  const location = useLocation();
  const profile = useProfile();
  const { reference, failures } = useAccessReference();
  const [submitted, setSubmitted] = useState<RegistrationValues | null>(null);
  const [next, setNext] = useState<{ values: RegistrationValues; round: number } | null>(null);
  const mutation = useSubmitProxyRegistration({
    mutationConfig: {
      onSuccess: (_registration, body) =>
        notifications.show({
          color: 'green',
          title: REGISTRATION_MESSAGES.submitted,
          message: `${body.firstName} ${body.lastName}`,
        }),
    },
  });

  let body;
  if (profile.error) body = <LoadError text="Problem loading your profile." onRetry={() => void profile.refetch()} />;
  else if (failures.length) body = failures.map((f) => <LoadError key={f.text} text={f.text} onRetry={f.retry} />);
  else if (!reference || !profile.data) body = <PageLoader label="Loading the registration form" />;
  else if (submitted) {
    const again = (values: RegistrationValues) => {
      setNext((n) => ({ values, round: (n?.round ?? 0) + 1 }));
      setSubmitted(null);
    };
    body = (
      <Stack gap="md">
        <Alert color="green" title={REGISTRATION_MESSAGES.submitted} role="status" data-testid="registration-submitted">
          The request for {submitted.firstName} {submitted.lastName} was submitted. User Support reviews it within{' '}
          {REGISTRATION_MESSAGES.reviewTime}.
        </Alert>
        <Group>
          <Button onClick={() => again(similarValues(submitted, reference.systems))}>Submit A Similar Request</Button>
          <Button variant="default" onClick={() => again(blankValues(reference.systems))}>
            Submit New Request
          </Button>
        </Group>
      </Stack>
    );
  } else {
    body = (
      <RegistrationForm
        // 001 §2.2 'The form resets on entry': a new form for every visit and every follow-up request.
        key={`${location.key}-${next?.round ?? 0}`}
        mode="proxy"
        initialValues={next?.values ?? blankValues(reference.systems)}
        reference={reference}
        busy={mutation.isPending}
        submit={(values) => mutation.mutateAsync(toProxyBody(values))}
        onSubmitted={setSubmitted}
        header={<RequesterBanner profile={profile.data} />}
      />
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>{TITLE}</Title>
      {body}
    </Stack>
  );
}
