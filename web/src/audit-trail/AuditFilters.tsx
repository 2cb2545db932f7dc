import '@mantine/dates/styles.css';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { AUDIT_ENTITY_LABELS, AUDIT_ENTITY_TYPES, CONSTANTS } from '@portal/contract';
import { useEffect, useState } from 'react';
import type { AuditView } from './view';

const ENTITY_OPTIONS = AUDIT_ENTITY_TYPES.map((t) => ({ value: t, label: AUDIT_ENTITY_LABELS[t] }));

/**
 * The audit trail's filters: actor (part of the username), entity, record id and a date range (a picker of
 * whole days). Typed filters wait 500 ms (000 §9 table filter debounce) before they query.
 */
export function AuditFilters({
  view,
  onChange,
}: {
  view: AuditView;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const [actor, setActor] = useDebouncedFilter(view.actor, (value) => onChange({ actor: value, page: null }));
  const [entityId, setEntityId] = useDebouncedFilter(view.entityId, (value) =>
    onChange({ entityId: value, page: null }),
  );

  return (
    <Group align="flex-end" wrap="wrap" gap="sm">
      <FilterText label="Changed by (optional)" placeholder="Username" filter={[actor, setActor]} w={200} />
      <Select
        label="Entity (optional)"
        placeholder="All entities"
        data={ENTITY_OPTIONS}
        value={view.entityType}
        onChange={(v) => onChange({ entityType: v, page: null })}
        clearable
        w={250}
      />
      <FilterText label="Record id (optional)" placeholder="e.g. 12" filter={[entityId, setEntityId]} w={150} />
      <DatePickerInput
        type="range"
        label="Date range (optional)"
        placeholder="From – to"
        value={[view.from, view.to]}
        onChange={([from, to]) => onChange({ from: from ?? null, to: to ?? null, page: null })}
        allowSingleDateInRange
        clearable
        valueFormat="MM/DD/YYYY"
        maxDate={new Date()}
        w={260}
      />
      <Button
        variant="default"
        onClick={() => {
          setActor('');
          setEntityId('');
          onChange({ actor: null, entityType: null, entityId: null, from: null, to: null, page: null });
        }}
      >
        Clear filters
      </Button>
    </Group>
  );
}

/**
 * A typed filter's text and its setter: `commit` gets the trimmed text (null when empty) once typing has paused
 * for 000 §9's table filter debounce, unless it is already `current` (the URL's value).
 */
function useDebouncedFilter(current: string, commit: (value: string | null) => void): [string, (text: string) => void] {
  const [text, setText] = useState(current);
  const [debounced] = useDebouncedValue(text.trim(), CONSTANTS.tableFilterDebounceMs);
  useEffect(() => {
    if (debounced !== current) commit(debounced || null);
    // Only a new debounced value writes the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return [text, setText];
}

/** A typed filter's input, showing and setting the text of `useDebouncedFilter`. */
function FilterText({
  filter: [text, setText],
  ...props
}: {
  label: string;
  placeholder: string;
  filter: [string, (text: string) => void];
  w: number;
}) {
  return <TextInput {...props} value={text} onChange={(e) => setText(e.currentTarget.value)} maxLength={64} />;
}
