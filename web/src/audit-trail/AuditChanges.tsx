import { Badge, Table, Text } from '@mantine/core';
import type { AuditEvent } from '@portal/contract';
import { fieldLabel } from './fieldLabels';

type Snapshot = Record<string, unknown>;

const asSnapshot = (v: unknown): Snapshot | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Snapshot) : null;

function show(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return '---';
  if (Array.isArray(value))
    return value.every((x) => typeof x !== 'object') ? value.join(', ') || '(none)' : JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The fields an event changed (every field of a created record). */
export function changedFields(e: Pick<AuditEvent, 'before' | 'after'>): string[] {
  const before = asSnapshot(e.before) ?? {};
  const after = asSnapshot(e.after) ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/**
 * 'Request Status, Reviewer Comments' / 'New record' / '---': a row's short summary of what changed, in the
 * screens' labels. The version number moves on every save and says nothing to an auditor, so it is left out.
 */
export function changeSummary(e: Pick<AuditEvent, 'before' | 'after' | 'entityType'>): string {
  if (e.before === null && e.after !== null) return 'New record';
  const fields = changedFields(e).filter((k) => k !== 'versionno');
  return fields.length ? fields.map((k) => fieldLabel(e.entityType, k)).join(', ') : '---';
}

/** Before and after side by side, changed fields marked (what an auditor reads first). */
export function AuditChanges({ event }: { event: AuditEvent }) {
  const before = asSnapshot(event.before);
  const after = asSnapshot(event.after);
  if (!before && !after) return <Text c="dimmed">This event carries no snapshot.</Text>;
  const changed = new Set(changedFields(event));
  // The id, then what changed, then the rest (PostgreSQL does not keep the snapshots' key order).
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort(
    (a, b) =>
      Number(b === 'id') - Number(a === 'id') || Number(changed.has(b)) - Number(changed.has(a)) || a.localeCompare(b),
  );
  return (
    <Table striped withTableBorder aria-label="Before and after">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k} data-changed={changed.has(k)}>
            <Table.Td>
              <Text size="sm" fw={changed.has(k) ? 700 : 400} component="span">
                {fieldLabel(event.entityType, k)}
              </Text>
              {changed.has(k) && before && (
                <Badge size="xs" ml="xs" color="orange" variant="light">
                  changed
                </Badge>
              )}
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>{before ? show(before[k]) : ''}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>{after ? show(after[k]) : ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
