import { Table, Text } from '@mantine/core';
import {
  AUDIT_FINDING_LABELS,
  AUDIT_INTEGRITY_TEXTS,
  type AuditIntegrityFinding,
  type AuditVerificationSummary,
} from '@portal/contract';
import { MISSING, formatDateTime } from '../../shared/format';

const entry = (f: AuditIntegrityFinding) =>
  f.rowId === null ? MISSING : f.toRowId && f.toRowId !== f.rowId ? `#${f.rowId}–#${f.toRowId}` : `#${f.rowId}`;
const windowOf = (f: AuditIntegrityFinding) =>
  f.from === null && f.to === null ? MISSING : `${formatDateTime(f.from)} – ${formatDateTime(f.to)}`;

/**
 * The findings of a verification: the kind in words, the entry (or range of entries), the seal, the time window
 * affected and the verifier's detail. Only the first findings are stored; the caption says how many there were.
 * Below 768 px each row stacks into 'label value' lines (the cells carry `data-label`, as the data tables do).
 */
export function FindingsTable({ verification }: { verification: AuditVerificationSummary }) {
  const { findings, findingsTotal } = verification;
  if (!findings.length) return <Text size="sm">{AUDIT_INTEGRITY_TEXTS.noFindings}</Text>;
  const caption =
    findingsTotal > findings.length
      ? `The first ${findings.length} of ${findingsTotal} findings`
      : `${findingsTotal} finding${findingsTotal === 1 ? '' : 's'}`;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder aria-label="Findings" captionSide="top" verticalSpacing="xs">
        <Table.Caption>{caption}</Table.Caption>
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
              <Table.Td>{AUDIT_FINDING_LABELS[f.kind]}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{entry(f)}</Table.Td>
              <Table.Td>{f.sealId === null ? MISSING : `#${f.sealId}`}</Table.Td>
              <Table.Td>{windowOf(f)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.detail}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
