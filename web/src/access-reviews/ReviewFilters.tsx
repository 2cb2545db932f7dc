import { Group, Radio, TextInput } from '@mantine/core';
import { ACCESS_REVIEW_ITEM_STATES } from '@portal/contract';

export type ItemState = (typeof ACCESS_REVIEW_ITEM_STATES)[number];

const STATE_LABELS: Record<ItemState, string> = { UNDECIDED: 'Undecided', KEEP: 'Keep', REMOVE: 'Remove', ALL: 'All' };

/** The state in the URL, or Undecided (the reviewer's work) when absent or unknown. */
export const stateFromUrl = (value: string | null): ItemState =>
  ACCESS_REVIEW_ITEM_STATES.find((s) => s === value) ?? 'UNDECIDED';

/**
 * The filter box (a person's name, username or email, or a study role; the server matches part of a word) and
 * the state switch (Undecided / Keep / Remove / All) of the review items (issue 25).
 */
export function ReviewFilters({
  filter,
  onFilter,
  state,
  onState,
}: {
  filter: string;
  onFilter: (text: string) => void;
  state: ItemState;
  onState: (state: ItemState) => void;
}) {
  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      <TextInput
        label="Filter items"
        placeholder="Name, username, email or study role"
        value={filter}
        onChange={(e) => onFilter(e.currentTarget.value)}
        maxLength={256}
        w={{ base: '100%', sm: 340 }}
      />
      <Radio.Group label="Show items" value={state} onChange={(v) => onState(v as ItemState)}>
        <Group gap="md" mt={6} mb={8}>
          {ACCESS_REVIEW_ITEM_STATES.map((s) => (
            <Radio key={s} value={s} label={STATE_LABELS[s]} />
          ))}
        </Group>
      </Radio.Group>
    </Group>
  );
}
