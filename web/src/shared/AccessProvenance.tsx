import { Anchor, Button, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ProvenanceEvent } from '@portal/contract';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { useAccessProvenance } from './api/provenance';
import { LoadError } from './ErrorAlert';
import { formatDateTime } from './format';
import { SignatureManifest } from './signature/SignatureManifest';

/** The texts of an access record's history (issue 25 'Why does this person have this access'). */
export const PROVENANCE_TEXTS = {
  loading: 'Loading the history of this access',
  empty: 'No history recorded',
  loadFailed: 'Problem loading the history of this access.',
  listLabel: (roleName: string) => `History of the ${roleName} access`,
  sectionTitle: 'Where this access came from',
  sectionIntro:
    'For each access, the request, review, proxy batch, edit or campaign decision that granted, changed or kept it.',
  expander: (roleName: string) => `History: ${roleName}`,
} as const;

/** A numbered source, as a link for those who may open it (`href` null: as text). */
function named(text: string, href: string | null): ReactNode {
  return href ? (
    <Anchor component={Link} to={href} size="sm">
      {text}
    </Anchor>
  ) : (
    <>{text}</>
  );
}

/** Where an event came from, in words; requests, registrations and proxy batches linked for READ_USERS. */
function sourceOf(event: ProvenanceEvent, canOpen: boolean): ReactNode {
  const { requestId, batchId } = event;
  const request =
    requestId === null
      ? null
      : named(`access-change request #${requestId}`, canOpen ? paths.app.accessChangeReview.href(requestId) : null);
  switch (event.source) {
    case 'REQUEST':
      return request ?? 'an access-change request';
    case 'PROXY_BATCH':
      return (
        <>
          {batchId === null
            ? 'a proxy batch'
            : named(`proxy batch #${batchId}`, canOpen ? paths.app.proxyAccessChange.href(batchId) : null)}
          {request && <> ({request})</>}
        </>
      );
    case 'REGISTRATION':
      return requestId === null
        ? 'the approval of the registration'
        : named(`registration #${requestId}`, canOpen ? paths.app.registrationReview.href(requestId) : null);
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
      return request ? <>{request} (the record itself)</> : 'the record itself';
  }
}

/**
 * What happened, where from and by whom, in a reviewer's words. A version the audit trail did not write (the
 * initial data, rows older than the trail) comes from the record alone: the server labels it 'Granted (no
 * audit row)'; a reviewer reads that nothing on file explains it.
 */
function whatHappened(event: ProvenanceEvent, canOpen: boolean): ReactNode {
  const unexplained = / \(no audit row\)$/;
  if (event.source === 'OTHER' && unexplained.test(event.label)) {
    const verb = event.label.replace(unexplained, '');
    const request = event.requestId === null ? null : sourceOf({ ...event, source: 'REQUEST' }, canOpen);
    return (
      <>
        {verb} directly on the account {request ? <>after {request}</> : '(no request or review on file)'}, entered by{' '}
        {event.actorUsername}
      </>
    );
  }
  return (
    <>
      {event.label}, from {sourceOf(event, canOpen)}, by {event.actorUsername}
    </>
  );
}

/** One event: when, what, from where, by whom and the comment, as one readable list item. */
function EventItem({ event, canOpen }: { event: ProvenanceEvent; canOpen: boolean }) {
  return (
    <li>
      <Group gap={6} wrap="wrap" align="baseline">
        <Text size="sm" span fw={600}>
          <time dateTime={event.at}>{formatDateTime(event.at)}</time>
        </Text>
        <Text size="sm" span>
          {whatHappened(event, canOpen)}
        </Text>
      </Group>
      {event.comment && (
        <Text size="sm" c="dimmed">
          Comment: {event.comment}
        </Text>
      )}
      <SignatureManifest view={event} compact />
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
  const canOpen = useHasPermissions('READ_USERS');
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
        <EventItem key={`${event.at}-${i}`} event={event} canOpen={canOpen} />
      ))}
    </Stack>
  );
}

/** One record's 'History' expander: a button (aria-expanded) and, once opened, the record's events. */
function HistoryExpander({ portalUserId, record }: { portalUserId: number; record: { id: number; roleName: string } }) {
  const [open, setOpen] = useState(false);
  const regionId = `access-history-${record.id}`;
  return (
    <div>
      <Button
        variant="subtle"
        size="compact-sm"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setOpen((o) => !o)}
        leftSection={<span aria-hidden>{open ? '▾' : '▸'}</span>}
      >
        {PROVENANCE_TEXTS.expander(record.roleName)}
      </Button>
      <div id={regionId} hidden={!open}>
        {open && <AccessProvenance portalUserId={portalUserId} accessId={record.id} />}
      </div>
    </div>
  );
}

/**
 * The Access tabs' 'History' expanders (issue 25): one per access record, labelled by its study role, each
 * showing `AccessProvenance` once opened (a closed one reads nothing; the open ones share one call per person).
 * Built of Button and Stack, whose styles the app loads (web/src/app/mantine-styles.ts).
 */
export function AccessHistorySection({
  portalUserId,
  records,
  headingId,
}: {
  portalUserId: number;
  records: readonly { id: number; roleName: string }[];
  headingId: string;
}) {
  if (!records.length) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {PROVENANCE_TEXTS.sectionTitle}
      </Title>
      <Text size="sm" c="dimmed">
        {PROVENANCE_TEXTS.sectionIntro}
      </Text>
      {records.map((r) => (
        <HistoryExpander key={r.id} portalUserId={portalUserId} record={r} />
      ))}
    </Stack>
  );
}
