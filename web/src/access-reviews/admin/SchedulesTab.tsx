import { Badge, Button } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { type AccessReviewSchedule } from '@portal/contract';
import { ApiError } from '../../lib/apiClient';
import { ClientDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { showErrorToast } from '../../shared/errorToast';
import { DateTimeCell } from '../../shared/TableCells';
import { useDeactivateSchedule, useSchedules } from '../api/schedules';
import { WHOLE_WORD } from '../badgeStyles';
import { TemporalLink } from './parts';

/**
 * The recurring access reviews (issue 25): each a Temporal Schedule filing a campaign every N days, with its
 * link into the Temporal UI and 'Deactivate' (after a confirmation: no further campaigns, the running one goes
 * on).
 */
export function SchedulesTab() {
  const schedules = useSchedules();
  const deactivate = useDeactivateSchedule({
    mutationConfig: {
      onSuccess: (_, id) => {
        const name = schedules.data?.find((s) => s.id === id)?.name ?? '';
        notifications.show({ color: 'green', message: `Recurring access review ${name} deactivated` });
      },
      onError: (error) =>
        showErrorToast(
          'Unable to deactivate the recurring access review',
          error instanceof ApiError ? error.message : String(error),
        ),
    },
  });
  const confirm = (s: AccessReviewSchedule) =>
    modals.openConfirmModal({
      title: `Deactivate ${s.name}?`,
      children: `No further campaigns will be started by this recurring review, and its schedule is removed from Temporal. A campaign it already started runs on to its deadline.`,
      labels: { confirm: 'Deactivate', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => deactivate.mutate(s.id),
    });

  return (
    <>
      {schedules.isError && (
        <LoadError text="Problem loading recurring access reviews." onRetry={() => void schedules.refetch()} />
      )}
      <ClientDataTable<AccessReviewSchedule>
        ariaLabel="Recurring access reviews"
        records={schedules.data}
        fetching={schedules.isPending}
        initialSort={{ columnAccessor: 'sysdat', direction: 'desc' }}
        columns={[
          { accessor: 'name', title: 'Name', sortable: true },
          { accessor: 'everyDays', title: 'Every (days)', sortable: true },
          { accessor: 'durationDays', title: 'Duration (days)' },
          {
            accessor: 'inactive',
            title: 'Status',
            render: (s) => (
              <Badge color={s.inactive ? 'gray' : 'green'} variant="light" tt="none" styles={WHOLE_WORD}>
                {s.inactive ? 'Inactive' : 'Active'}
              </Badge>
            ),
          },
          { accessor: 'campaigns', title: 'Campaigns' },
          { accessor: 'sysdat', title: 'Created', sortable: true, render: (s) => <DateTimeCell value={s.sysdat} /> },
          {
            accessor: 'scheduleUrl',
            title: 'Schedule',
            render: (s) => <TemporalLink url={s.scheduleUrl} label="Temporal UI" of={s.name} />,
          },
          {
            accessor: 'id',
            title: 'Actions',
            render: (s) =>
              s.inactive ? null : (
                <Button
                  size="compact-sm"
                  color="red"
                  variant="light"
                  aria-label={`Deactivate ${s.name}`}
                  loading={deactivate.isPending && deactivate.variables === s.id}
                  onClick={() => confirm(s)}
                >
                  Deactivate
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
