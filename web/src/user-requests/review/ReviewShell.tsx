import { Anchor, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@portal/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/apiClient';
import { paths } from '../../lib/paths';
import { LoadError } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { usePageTitle } from '../../shared/usePageTitle';

/**
 * The page frame of every request review screen (001 §2.8 and the registration / profile-change reviews to
 * come): 'Back to User Requests Page', the title, and the request's states: an id that cannot exist, loading,
 * a 404 (the server's text, no retry), another failure (the spec's 'Problem loading ...' with a retry), then
 * `children` with the loaded request.
 */
const ACCESS_TEXTS = {
  invalidId: 'There is no user-access modification request with this id.',
  loadFailed: MESSAGES.access.loadRequestsFailed,
};

export function ReviewShell<T>({
  title,
  id,
  request,
  texts = ACCESS_TEXTS,
  children,
}: {
  title: string;
  /** The kind's texts for an impossible id and a failed load (the access change's by default). */
  texts?: { invalidId: string; loadFailed: string };
  /** The route's id; anything but a positive integer is 'no such request' without a call. */
  id: number;
  request: UseQueryResult<T>;
  children: (request: T) => ReactNode;
}) {
  usePageTitle(title);
  let body: ReactNode;
  if (!Number.isInteger(id) || id <= 0) {
    body = <LoadError text={texts.invalidId} />;
  } else if (request.data) {
    body = children(request.data);
  } else if (request.error) {
    const notFound = request.error instanceof ApiError && request.error.status === 404;
    body = (
      <LoadError
        text={notFound ? request.error.message : texts.loadFailed}
        onRetry={notFound ? undefined : () => void request.refetch()}
      />
    );
  } else {
    body = <PageLoader label="Loading the request" />;
  }
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.app.userRequests.href} size="sm">
        <span aria-hidden>← </span>
        Back to User Requests Page
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
