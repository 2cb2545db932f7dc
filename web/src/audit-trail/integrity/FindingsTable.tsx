import { Table, Text } from '@mantine/core';
import {
  AUDIT_FINDING_LABELS,
  AUDIT_INTEGRITY_TEXTS,
  type AuditIntegrityFinding,
  type AuditVerificationSummary,
} from '@portal/contract';
import stacked from '../../shared/DataTable.module.css';
import { MISSING, formatDateTime } from '../../shared/format';

/** Each cell names its column: the phone's stacked layout (the shared one) shows it before the value. */
const cell = (label: string) => ({ 'data-label': label });

const entry = (f: AuditIntegrityFinding) =>
  f.rowId === null ? MISSING : f.toRowId && f.toRowId !== f.rowId ? `#${f.rowId}–#${f.toRowId}` : `#${f.rowId}`;
const windowOf = (f: AuditIntegrityFinding) =>
  f.from === null && f.to === null ? MISSING : `${formatDateTime(f.from)} – ${formatDateTime(f.to)}`;

/**
 * The findings of a verification: the kind in words, the entry (or range of entries), the seal, the time window
 * affected and the verifier's detail. Only the first findings are stored; the caption says how many there were.
 * Below 768 px each row stacks into 'label value' lines (DataTable.module.css, as the data tables do), so the
 * table never scrolls sideways.
 */
export function FindingsTable({ verification }: { verification: AuditVerificationSummary }) {
  const { findings, findingsTotal } = verification;
  if (!findings.length) return <Text size="sm">{AUDIT_INTEGRITY_TEXTS.noFindings}</Text>;
  const caption =
    findingsTotal > findings.length
      ? `The first ${findings.length} of ${findingsTotal} findings`
      : `${findingsTotal} finding${findingsTotal === 1 ? '' : 's'}`;
  return (
    <div className={stacked.stacked}>
      {/* Above the table, not its caption: the phone's stacked layout would squeeze a caption into a cell. */}
      <Text size="sm" mb="xs">
        {caption}
      </Text>
      <Table striped withTableBorder aria-label="Findings" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th>Entry</Table.Th>
            <Table.Th>Seal</Table.Th>
            <Table.Th>Window</Table.Th>
            <Table.Th>Detail</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {findings.map((f, i) => (
            <Table.Tr key={`${f.kind}-${f.rowId ?? ''}-${f.sealId ?? ''}-${i}`}>
              <Table.Td {...cell('What')}>{AUDIT_FINDING_LABELS[f.kind]}</Table.Td>
              <Table.Td {...cell('Entry')}>{entry(f)}</Table.Td>
              <Table.Td {...cell('Seal')}>{f.sealId === null ? MISSING : `#${f.sealId}`}</Table.Td>
              <Table.Td {...cell('Window')}>{windowOf(f)}</Table.Td>
              <Table.Td {...cell('Detail')} style={{ overflowWrap: 'anywhere' }}>
                {f.detail}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
