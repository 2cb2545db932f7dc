import { Button, Checkbox, Group, Text } from '@mantine/core';
import { ACCESS_REVIEW_LIMITS } from '@portal/contract';

/**
 * What a bulk decision applies to and its buttons (issue 25 'decided one by one or in bulk'): the selected
 * items, or with 'every item matching the filter' all the caller's items of the campaign that the filter and
 * state match (at most ACCESS_REVIEW_LIMITS.bulkFilter). Keep saves at once; Remove asks for a comment first.
 */
export function DecisionToolbar({
  selectedCount,
  matching,
  applyAll,
  onApplyAll,
  pending,
  onKeep,
  onRemove,
}: {
  selectedCount: number;
  matching: number;
  applyAll: boolean;
  onApplyAll: (on: boolean) => void;
  pending: boolean;
  onKeep: () => void;
  onRemove: () => void;
}) {
  const count = applyAll ? matching : selectedCount;
  const tooMany = applyAll && matching > ACCESS_REVIEW_LIMITS.bulkFilter;
  return (
    <Group gap="md" align="center" wrap="wrap">
      <Text size="sm" role="status" aria-live="polite" miw="10rem">
        {applyAll ? `All ${matching} matching items` : `${selectedCount} selected`}
      </Text>
      <Checkbox
        label={`Apply to every item matching the filter (${matching})`}
        checked={applyAll}
        onChange={(e) => onApplyAll(e.currentTarget.checked)}
        disabled={matching === 0}
      />
      <Group gap="xs">
        <Button color="green" onClick={onKeep} disabled={count === 0 || tooMany} loading={pending}>
          Keep
        </Button>
        <Button color="red" variant="light" onClick={onRemove} disabled={count === 0 || tooMany || pending}>
          Remove
        </Button>
      </Group>
      {tooMany && (
        <Text size="sm" c="red">
          At most {ACCESS_REVIEW_LIMITS.bulkFilter} items can be decided at once: narrow the filter.
        </Text>
      )}
    </Group>
  );
}
