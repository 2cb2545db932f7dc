import { Badge, Group, Stack, Text } from '@mantine/core';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewItem, type AccessReviewOutcome } from '@portal/contract';
import { CondensedText } from '../shared/TableCells';
import { WHOLE_WORD } from './badgeStyles';

/** The badge text of an item's decision, and its colour (AA in the theme's light variant). */
const DECISIONS = {
  KEEP: { label: 'Keep', color: 'green' },
  REMOVE: { label: 'Remove', color: 'red' },
  NONE: { label: 'Undecided', color: 'gray' },
} as const;

/** The outcome of a closed campaign's item. */
const OUTCOMES: Record<AccessReviewOutcome, { label: string; color: string }> = {
  KEPT: { label: 'Kept', color: 'green' },
  REMOVED: { label: 'Removed', color: 'red' },
  CHANGED: { label: 'Changed: not removed', color: 'orange' },
};

/** The 'Changed since the review started' mark with the note that a decision removes nothing (issue 25). */
export function ChangedMark() {
  return (
    <Stack gap={2}>
      <Badge color="orange" variant="light" size="sm" tt="none" style={{ whiteSpace: 'normal', height: 'auto' }}>
        Changed since the review started
      </Badge>
      <Text size="xs" c="dimmed">
        {ACCESS_REVIEW_MESSAGES.changedSinceSnapshot}
      </Text>
    </Stack>
  );
}

/**
 * An item's decision cell: Keep / Remove / Undecided, its comment, and after close the outcome. The decision
 * (and its reviewer, in the next column) may change until the campaign closes.
 */
export function ItemDecision({ item }: { item: AccessReviewItem }) {
  const d = DECISIONS[item.decision ?? 'NONE'];
  const outcome = item.outcome ? OUTCOMES[item.outcome] : null;
  return (
    <Stack gap={4}>
      <Group gap={4}>
        <Badge color={d.color} variant="light" size="sm" tt="none" styles={WHOLE_WORD}>
          {d.label}
        </Badge>
        {outcome && (
          <Badge color={outcome.color} variant="outline" size="sm" tt="none" styles={WHOLE_WORD}>
            {outcome.label}
          </Badge>
        )}
      </Group>
      {item.comment && <CondensedText text={item.comment} maxChars={60} />}
    </Stack>
  );
}
