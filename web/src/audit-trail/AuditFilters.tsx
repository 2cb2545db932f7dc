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
  const [actor, setActor] = useState(view.actor);
  const [entityId, setEntityId] = useState(view.entityId);
  const [debouncedActor] = useDebouncedValue(actor.trim(), CONSTANTS.tableFilterDebounceMs);
  const [debouncedId] = useDebouncedValue(entityId.trim(), CONSTANTS.tableFilterDebounceMs);

  useEffect(() => {
    if (debouncedActor !== view.actor) onChange({ actor: debouncedActor || null, page: null });
    // Only a new debounced value writes the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedActor]);
  useEffect(() => {
    if (debouncedId !== view.entityId) onChange({ entityId: debouncedId || null, page: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedId]);

  return (
    <Group align="flex-end" wrap="wrap" gap="sm">
      <TextInput
        label="Changed by (optional)"
        placeholder="Username"
        value={actor}
        onChange={(e) => setActor(e.currentTarget.value)}
        maxLength={64}
        w={200}
      />
      <Select
        label="Entity (optional)"
        placeholder="All entities"
        data={ENTITY_OPTIONS}
        value={view.entityType}
        onChange={(v) => onChange({ entityType: v, page: null })}
        clearable
        w={250}
      />
      <TextInput
        label="Record id (optional)"
        placeholder="e.g. 12"
        value={entityId}
        onChange={(e) => setEntityId(e.currentTarget.value)}
        maxLength={64}
        w={150}
      />
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
