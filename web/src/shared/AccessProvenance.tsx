import { Anchor, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ProvenanceEvent } from '@portal/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { useAccessProvenance } from './api/provenance';
import { LoadError } from './ErrorAlert';
import { formatDateTime } from './format';

/** The texts of an access record's history (issue 25 'Why does this person have this access'). */
export const PROVENANCE_TEXTS = {
  loading: 'Loading the history of this access',
  empty: 'No history recorded',
  loadFailed: 'Problem loading the history of this access.',
  listLabel: (roleName: string) => `History of the ${roleName} access`,
} as const;

/** Where an event came from, in words; the request and the proxy batch as links for those who may open them. */
function sourceOf(event: ProvenanceEvent, canOpenRequests: boolean): ReactNode {
  const request =
    event.requestId === null ? null : canOpenRequests ? (
      <Anchor component={Link} to={paths.app.accessChangeReview.href(event.requestId)} size="sm">
        access-change request #{event.requestId}
      </Anchor>
    ) : (
      <>access-change request #{event.requestId}</>
    );
  switch (event.source) {
    case 'REQUEST':
      return request ?? 'an access-change request';
    case 'PROXY_BATCH':
      return (
        <>
          {event.batchId === null ? (
            'a proxy batch'
          ) : (
            <Anchor component={Link} to={paths.app.proxyAccessChange.href(event.batchId)} size="sm">
              proxy batch #{event.batchId}
            </Anchor>
          )}
          {request && <> ({request})</>}
        </>
      );
    case 'ADMIN_EDIT':
      return "an administrator's edit of the Access tab";
    case 'CAMPAIGN': {
      const name = event.campaignName ? `‘${event.campaignName}’ ` : '';
      return event.campaignId === null
        ? 'an access review campaign'
        : `access review campaign ${name}#${event.campaignId}`;
    }
    case 'EXPIRY':
      return 'the end date (access expiry)';
    default:
      return 'a record written before the audit trail named it';
  }
}

/** One event: when, what, from where, by whom and the comment, as one readable list item. */
function EventItem({ event, canOpenRequests }: { event: ProvenanceEvent; canOpenRequests: boolean }) {
  return (
    <li>
      <Group gap={6} wrap="wrap" align="baseline">
        <Text size="sm" span fw={600}>
          <time dateTime={event.at}>{formatDateTime(event.at)}</time>
        </Text>
        <Text size="sm" span>
          {event.label}, from {sourceOf(event, canOpenRequests)}, by {event.actorUsername}
        </Text>
      </Group>
      {event.comment && (
        <Text size="sm" c="dimmed">
          Comment: {event.comment}
        </Text>
      )}
    </li>
  );
}

/**
 * An access record's history (issue 25 'Why does this person have this access'): the request, review, proxy
 * batch, administrator's edit, campaign decision or expiry that granted, changed or kept record `accessId` of
 * person `portalUserId`, oldest first, each with its time, who and comment. Reads the person's provenance once
 * (cached per person, shared by every record's history on the page); loading, empty and failed states. Shown
 * by both Access tabs and the review items.
 */
export function AccessProvenance({ portalUserId, accessId }: { portalUserId: number; accessId: number }) {
  const provenance = useAccessProvenance(portalUserId);
  const canOpenRequests = useHasPermissions('READ_USERS');
  if (provenance.isError) {
    return <LoadError text={PROVENANCE_TEXTS.loadFailed} onRetry={() => void provenance.refetch()} />;
  }
  if (provenance.isPending) {
    return (
      <div role="status" aria-live="polite">
        <VisuallyHidden>{PROVENANCE_TEXTS.loading}</VisuallyHidden>
        <Skeleton height={20} />
      </div>
    );
  }
  const record = provenance.data.records.find((r) => r.accessId === accessId);
  if (!record || !record.events.length) {
    return (
      <Text size="sm" c="dimmed">
        {PROVENANCE_TEXTS.empty}
      </Text>
    );
  }
  return (
    <Stack gap={4} component="ol" aria-label={PROVENANCE_TEXTS.listLabel(record.roleName)} m={0} pl="md">
      {record.events.map((event, i) => (
        <EventItem key={`${event.at}-${i}`} event={event} canOpenRequests={canOpenRequests} />
      ))}
    </Stack>
  );
}
