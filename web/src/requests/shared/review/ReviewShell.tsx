import { Anchor, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@portal/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../lib/apiClient';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../shared/ErrorAlert';
import { PageLoader } from '../../../shared/PageLoader';
import { SignatureManifest } from '../../../shared/signature/SignatureManifest';
import { StatusPage } from '../../../shared/StatusPage';
import { usePageTitle } from '../../../shared/usePageTitle';

/**
 * The page frame of every request review screen (001 §2.8 and the registration / profile-change reviews to
 * come): 'Back to User Requests Page', the title, and the request's states: not found (an id that cannot
 * exist, or a 404: a heading, the kind's text and the way back to the queue, no retry), loading, another
 * failure (the spec's 'Problem loading ...' with a retry), then `children` with the loaded request.
 */
const ACCESS_TEXTS = {
  invalidId: 'There is no user-access modification request with this id.',
  loadFailed: MESSAGES.access.loadRequestsFailed,
};

const QUEUE = {
  to: paths.app.userRequests.href,
  label: 'Back to User Requests Page',
  onward: 'Go to the User Requests queue',
};

export function ReviewShell<T>({
  title,
  id,
  request,
  texts = ACCESS_TEXTS,
  back = QUEUE,
  children,
}: {
  title: string;
  /** Where 'Back' leads: the User Requests queue by default ('Awaiting my approval' for a stage approver). */
  back?: { to: string; label: string; onward: string };
  /** The kind's texts for an impossible id and a failed load (the access change's by default). */
  texts?: { invalidId: string; loadFailed: string };
  /** The route's id; anything but a positive integer is 'no such request' without a call. */
  id: number;
  request: UseQueryResult<T>;
  children: (request: T) => ReactNode;
}) {
  usePageTitle(title);
  let body: ReactNode;
  const notFound =
    !Number.isInteger(id) || id <= 0 || (request.error instanceof ApiError && request.error.status === 404);
  if (notFound) {
    body = (
      <StatusPage
        title="Request Not Found"
        headingLevel={2}
        text={request.error instanceof ApiError ? request.error.message : texts.invalidId}
        onward={{ label: back.onward, to: back.to }}
        testId="request-not-found"
      />
    );
  } else if (request.data) {
    // A decided request's signatures under it (present only when signatures are on).
    body = (
      <>
        {children(request.data)}
        <SignatureManifest view={request.data} />
      </>
    );
  } else if (request.error) {
    body = <LoadError text={texts.loadFailed} onRetry={() => void request.refetch()} />;
  } else {
    body = <PageLoader label="Loading the request" />;
  }
  return (
    <Stack gap="md">
      <Anchor component={Link} to={back.to} size="sm">
        <span aria-hidden>← </span>
        {back.label}
      </Anchor>
      <Title order={1}>{title}</Title>
      {body}
    </Stack>
  );
}

/** One label / value pair of a review screen's description lists. */
export function ReviewItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}
