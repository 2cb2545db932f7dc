import { Anchor, Badge, VisuallyHidden } from '@mantine/core';
import { ACCESS_REVIEW_STATUS_LABELS, type AccessReviewStatus } from '@portal/contract';
import { WHOLE_WORD } from '../badgeStyles';

/**
 * Small pieces of the ADMIN campaign screens (issue 25): a campaign's status badge, and a link into the
 * Temporal Web UI (a campaign's workflow, a recurring review's schedule) that opens in a new tab and names
 * what it opens, nothing when the UI is not configured.
 */

/** Colours by meaning: under way, done, stopped. */
const STATUS_COLORS: Record<AccessReviewStatus, string> = {
  STARTING: 'blue',
  OPEN: 'violet',
  CLOSING: 'orange',
  CLOSED: 'green',
  CANCELLED: 'gray',
};

export function CampaignStatusBadge({ status }: { status: AccessReviewStatus }) {
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      radius="sm"
      tt="none"
      styles={WHOLE_WORD}
      data-testid="campaign-status"
    >
      {ACCESS_REVIEW_STATUS_LABELS[status]}
    </Badge>
  );
}

export function TemporalLink({ url, label, of }: { url: string | null; label: string; of?: string }) {
  if (!url) return null;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
      {label}
      <VisuallyHidden>{of ? ` of ${of}` : ''} (opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}
