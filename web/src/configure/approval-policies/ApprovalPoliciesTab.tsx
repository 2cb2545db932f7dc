import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ApprovalPolicy } from '@portal/contract';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { ClientDataTable } from '../../shared/DataTable';
import { LoadError } from '../../shared/ErrorAlert';
import { RecordLink } from '../ConfigListTab';
import { useApprovalPolicies } from './api';
import { POLICY_TEXTS, stagesSummary } from './policyForm';
import { StudyApproversSection } from './StudyApproversSection';

const href = paths.app.configure.approvalPolicy.href;
const systemText = (p: ApprovalPolicy) => p.systemName ?? POLICY_TEXTS.anySystem;

/**
 * 'Approval policies' (ADMIN): the policies (study role, system or 'Any system', the stages summarised, active)
 * with 'Add policy'; a row opens its editor. Under it, the studies' named approvers.
 */
export function ApprovalPoliciesTab() {
  const navigate = useNavigate();
  const policies = useApprovalPolicies();
  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="approval-policies-heading">
        <Group justify="space-between">
          <Title order={2} id="approval-policies-heading">
            Approval policies
          </Title>
          <Button component={Link} to={href('new')}>
            Add policy
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          A request for a study role with a policy passes its stages, in order, before the User Support review.
        </Text>
        {policies.isError && <LoadError text={POLICY_TEXTS.loadFailed} onRetry={() => void policies.refetch()} />}
        {policies.data?.length === 0 ? (
          // The one empty state: no filter and no empty table under it.
          <Text size="sm" role="status">
            {POLICY_TEXTS.empty}
          </Text>
        ) : (
          <ClientDataTable<ApprovalPolicy>
            ariaLabel="Approval policies"
            filterLabel="Filter approval policies"
            filterText={(p) => `${p.roleName} ${systemText(p)} ${stagesSummary(p.stages)}`}
            sortValue={(p, key) =>
              key === 'systemName' ? systemText(p) : key === 'stages' ? stagesSummary(p.stages) : p[key as 'roleName']
            }
            initialSort={{ columnAccessor: 'roleName', direction: 'asc' }}
            records={policies.data}
            fetching={policies.isFetching && !policies.data}
            onRowClick={(p) => void navigate(href(p.id))}
            columns={[
              {
                accessor: 'roleName',
                title: 'Study Role',
                sortable: true,
                render: (p) => <RecordLink to={href(p.id)}>{p.roleName}</RecordLink>,
              },
              { accessor: 'systemName', title: 'System', sortable: true, render: systemText },
              { accessor: 'stages', title: 'Stages', render: (p) => stagesSummary(p.stages) },
              {
                accessor: 'active',
                title: 'Status',
                sortable: true,
                render: (p) => (
                  <Badge color={p.active ? 'green' : 'gray'} variant="light">
                    {p.active ? 'Active' : 'Inactive'}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </Stack>
      <StudyApproversSection />
    </Stack>
  );
}
