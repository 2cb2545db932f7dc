import { Anchor, Button, Group, Modal, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { AUDIT_ENTITY_LABELS, auditActionLabel, type AuditEntityType, type AuditEvent } from '@portal/contract';
import dayjs from 'dayjs';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { ServerDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { urlPaging, useUrlView } from '../shared/urlView';
import { usePageTitle } from '../shared/usePageTitle';
import { AuditChanges, changeSummary } from './AuditChanges';
import { AuditFilters } from './AuditFilters';
import { useAuditTrail } from './api/getAuditTrail';
import { DEFAULT_SIZE, readView } from './view';

const LOAD_FAILED = 'Problem loading the audit trail.';
const when = (at: string) => dayjs(at).format('MM/DD/YYYY h:mm:ss A');
const entityLabel = (t: string) => AUDIT_ENTITY_LABELS[t as AuditEntityType] ?? t;
const record = (e: AuditEvent) =>
  !e.entityName
    ? `#${e.entityId}`
    : e.entityName.endsWith(`#${e.entityId}`)
      ? e.entityName
      : `${e.entityName} (#${e.entityId})`;

/** The request's workflow in the Temporal Web UI: one short link ('Workflow', named in full for screen readers). */
function WorkflowLink({ url, label }: { url: string | null; label: string }) {
  if (!url) return <>---</>;
  return (
    <Anchor
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
      aria-label={`Workflow of ${label} in the Temporal Web UI (opens in a new tab)`}
      onClick={(e) => e.stopPropagation()}
    >
      Workflow ↗
    </Anchor>
  );
}

/**
 * Audit Trail /app/audit-trail (000 §2 Routes, under Administration, READ_USERS): every configuration
 * change, user change and request transition with who, when, what, before and after, and for requests the
 * workflow in the Temporal Web UI. Paged, filtered and sorted on the server; the view lives in the URL.
 * It is read-only: there is nothing to edit or delete.
 */
export function AuditTrailPage() {
  usePageTitle('Audit Trail');
  const { search, update } = useUrlView();
  const view = readView(search);
  const [open, setOpen] = useState<AuditEvent | null>(null);
  const rows = useAuditTrail(view);
  const admin = useHasPermissions('ADMIN');
  const sortStatus: DataTableSortStatus<AuditEvent> = {
    columnAccessor: view.sort.field,
    direction: view.sort.direction,
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1}>Audit Trail</Title>
        {admin && (
          <Anchor component={Link} to={paths.app.auditTrail.integrity.href} size="sm">
            Audit Integrity: verify the seals
          </Anchor>
        )}
      </Group>
      <Text c="dimmed" size="sm">
        Every change to the configuration, to users and to requests, as it was recorded. Entries cannot be changed or
        removed.
      </Text>
      <AuditFilters view={view} onChange={update} />
      {rows.isError && <LoadError text={LOAD_FAILED} onRetry={() => void rows.refetch()} />}
      <ServerDataTable<AuditEvent>
        ariaLabel="Audit trail"
        {...urlPaging(rows.data, view, update, DEFAULT_SIZE)}
        fetching={rows.isFetching}
        sortStatus={sortStatus}
        onSortStatusChange={(s) => update({ sort: `${String(s.columnAccessor)},${s.direction}`, page: null })}
        onRowClick={setOpen}
        columns={[
          { accessor: 'at', title: 'When', sortable: true, noWrap: true, render: (e) => when(e.at) },
          { accessor: 'actorUsername', title: 'Who', sortable: true },
          { accessor: 'entityType', title: 'Entity', sortable: true, render: (e) => entityLabel(e.entityType) },
          { accessor: 'entityId', title: 'Record', sortable: true, render: record },
          { accessor: 'action', title: 'What', sortable: true, render: (e) => auditActionLabel(e.action) },
          { accessor: 'changes', title: 'Changed', render: changeSummary },
          {
            accessor: 'workflowUrl',
            title: 'Temporal',
            render: (e) => <WorkflowLink url={e.workflowUrl} label={`${entityLabel(e.entityType)} ${record(e)}`} />,
          },
          {
            accessor: 'details',
            title: <VisuallyHidden>Details</VisuallyHidden>,
            render: (e) => (
              <Button
                size="compact-xs"
                variant="light"
                // The name starts with the visible text (WCAG 2.5.3, axe label-content-name-mismatch).
                aria-label={`Before / after: ${entityLabel(e.entityType)} ${record(e)}, ${auditActionLabel(e.action)}`}
                onClick={(ev) => {
                  ev.stopPropagation();
                  setOpen(e);
                }}
              >
                Before / after
              </Button>
            ),
          },
        ]}
      />
      <Modal
        opened={!!open}
        onClose={() => setOpen(null)}
        size="xl"
        title={open ? `${entityLabel(open.entityType)} ${record(open)}: ${auditActionLabel(open.action)}` : ''}
      >
        {open && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Text size="sm">
                <b>When:</b> {when(open.at)}
              </Text>
              <Text size="sm">
                <b>Who:</b> {open.actorUsername}
              </Text>
              <Group gap={4}>
                <Text size="sm" fw={700}>
                  Workflow:
                </Text>
                <WorkflowLink url={open.workflowUrl} label={`${entityLabel(open.entityType)} ${record(open)}`} />
              </Group>
            </SimpleGrid>
            <AuditChanges event={open} />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
