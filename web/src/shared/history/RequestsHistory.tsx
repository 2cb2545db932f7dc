import { Alert, Stack, Title } from '@mantine/core';
import { MESSAGES, PROFILE_CHANGE_MESSAGES, REGISTRATION_MESSAGES } from '@portal/contract';
import { useId, type ReactNode } from 'react';
import { LoadError } from '../ErrorAlert';
import { AccessRequestsTable } from './AccessRequestsTable';
import {
  type HistorySubject,
  useAccessRequestHistory,
  useProfileChangeHistory,
  useProxyRegistrationHistory,
} from './historyQueries';
import { ProfileChangeRequestsTable } from './ProfileChangeRequestsTable';
import { ProxyRegistrationsTable } from './ProxyRegistrationsTable';

/**
 * The Requests History (001 §2.9; 000 §2 User detail 'Requests History' tab and Profile 'history' tab), one
 * component for one's own history and for a user an administrator views: the note that these are requests
 * and may not reflect the access User Support granted, then three sections, each a table newest first:
 * Access Requests (filter box), Profile (Name/Email) Change Requests, Registration-by-Proxy Requests (filter
 * box). Reviewer comments are hidden on one's own history. Each section loads on its own, so one failing
 * call leaves the others readable.
 */
export function RequestsHistory({ subject }: { subject: HistorySubject }) {
  const id = useId();
  const access = useAccessRequestHistory(subject);
  const profileChanges = useProfileChangeHistory(subject);
  const proxy = useProxyRegistrationHistory(subject);
  const showReviewerComments = !subject.self;
  const section = (key: string, title: string, body: ReactNode) => (
    <Stack gap="sm" component="section" aria-labelledby={`${id}-${key}`}>
      <Title order={2} id={`${id}-${key}`}>
        {title}
      </Title>
      {body}
    </Stack>
  );
  return (
    <Stack gap="xl">
      <Alert color="blue" variant="light">
        {MESSAGES.access.requestsNote}
      </Alert>
      {section(
        'access',
        'Access Requests',
        <>
          {access.isError && (
            <LoadError text={MESSAGES.access.loadRequestsFailed} onRetry={() => void access.refetch()} />
          )}
          <AccessRequestsTable
            records={access.data}
            fetching={access.isPending}
            showReviewerComments={showReviewerComments}
          />
        </>,
      )}
      {section(
        'profile',
        'Profile (Name/Email) Change Requests',
        <>
          {profileChanges.isError && (
            <LoadError text={PROFILE_CHANGE_MESSAGES.loadFailed} onRetry={() => void profileChanges.refetch()} />
          )}
          <ProfileChangeRequestsTable
            records={profileChanges.data}
            fetching={profileChanges.isPending}
            showReviewerComments={showReviewerComments}
          />
        </>,
      )}
      {section(
        'proxy',
        'Registration-by-Proxy Requests',
        <>
          {proxy.isError && (
            <LoadError
              text={subject.self ? REGISTRATION_MESSAGES.loadOwnProxyFailed : REGISTRATION_MESSAGES.loadUserProxyFailed}
              onRetry={() => void proxy.refetch()}
            />
          )}
          <ProxyRegistrationsTable records={proxy.data} fetching={proxy.isPending} />
        </>,
      )}
    </Stack>
  );
}
