import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  hasAllPermissions,
  MESSAGES,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  type AccessControl,
  type AccessModRequest,
  type System,
} from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, apiGet } from '../app/api';
import { queryKeys, usePermissions } from '../app/queries';
import { PageLoader } from '../auth/SecurePage';
import { LoadError } from '../shared/ErrorAlert';
import { formatDateTime, joinOrMissing, orMissing } from '../shared/format';
import { systemNames, useSystems } from '../shared/referenceData';
import { usePageTitle } from '../shared/usePageTitle';
import { ReviewForm } from './ReviewForm';

const TITLE = 'Review Access Change Request';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}

function RequestedBlock({ block, index, systems }: { block: AccessControl; index: number; systems?: System[] }) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={`Requested role #${index + 1}`}>
      <Text fw={700} mb="xs">
        Role #{index + 1}
      </Text>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="sm" m={0}>
        <Item label="Study Role">{block.roleName}</Item>
        <Item label="LAOs">{joinOrMissing(block.laoIds)}</Item>
        <Item label="AOs">{joinOrMissing(block.siteCodes)}</Item>
        <Item label="Studies">{joinOrMissing(block.studyNames)}</Item>
        <Item label="Systems">{joinOrMissing(systemNames(block.systemAccessIds, systems))}</Item>
      </SimpleGrid>
    </Paper>
  );
}

function historyUrl(userId: number): string {
  const params = new URLSearchParams({ tab: 'history', returnPage: 'User Requests', returnUrl: '/app/user-requests' });
  return `/app/users/${userId}?${params.toString().replace(/\+/g, '%20')}`;
}

function RequestDetails({ request, systems }: { request: AccessModRequest; systems?: System[] }) {
  return (
    <Stack gap="md">
      <Paper withBorder p="md" component="section" aria-labelledby="request-heading">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="request-heading">
            Request
          </Title>
          <Badge variant="light" size="lg" data-testid="request-status">
            {REQUEST_STATUS_LABELS[request.requestStatus]}
          </Badge>
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
          <Item label="Requested User">
            {request.firstName} {request.lastName}
          </Item>
          <Item label="Email">{orMissing(request.email)}</Item>
          <Item label="Request Type">{REQUEST_TYPE_LABELS[request.requestType]}</Item>
          <Item label="Date Submitted">{formatDateTime(request.sysdat)}</Item>
          <Item label="Submitted By">
            {request.isProxyRequest ? `Proxy Requester: ${orMissing(request.proxyName)}` : 'Self'}
          </Item>
          <Item label="Request Status">{REQUEST_STATUS_LABELS[request.requestStatus]}</Item>
          <Item label="Date Modified">{formatDateTime(request.dchng)}</Item>
          <Item label="Last Modified By">{orMissing(request.lastModifiedBy)}</Item>
        </SimpleGrid>
        <Group mt="md" gap="lg">
          <Anchor component={Link} to={historyUrl(request.subjectUserId)} size="sm">
            View this user&apos;s request history
          </Anchor>
          {request.workflowUrl && (
            <Anchor href={request.workflowUrl} target="_blank" rel="noopener noreferrer" size="sm">
              Open workflow in Temporal UI
            </Anchor>
          )}
        </Group>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="requested-access-heading">
        <Title order={2} size="h4" mb="sm" id="requested-access-heading">
          Requested Access
        </Title>
        <Stack gap="sm">
          {request.accessControls.length === 0 && <Text c="dimmed">No access blocks in this request.</Text>}
          {request.accessControls.map((block, i) => (
            <RequestedBlock key={`${block.roleName}-${i}`} block={block} index={i} systems={systems} />
          ))}
          <Textarea
            label="Requester Comments"
            value={request.requesterComments || ''}
            placeholder="---"
            readOnly
            autosize
            minRows={2}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}

/**
 * Review Access Change Request /app/user-requests/access-change/:id (001 §2.8): READ_USERS sees it,
 * WRITE_USERS edits status, reviewer comments and external ticket number.
 */
export function ReviewAccessChangePage() {
  usePageTitle(TITLE);
  const id = Number(useParams().id);
  const permissions = usePermissions();
  const systems = useSystems();
  const request = useQuery({
    queryKey: queryKeys.accessModRequest(id),
    queryFn: ({ signal }) => apiGet<AccessModRequest>(`/rest/secure/user_access_mod_request/${id}`, undefined, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  const canEdit = hasAllPermissions(permissions.data ?? [], ['WRITE_USERS']);

  let body;
  if (!Number.isInteger(id) || id <= 0) {
    body = <LoadError text="There is no user-access modification request with this id." />;
  } else if (request.data) {
    body = (
      <Stack gap="md">
        <RequestDetails request={request.data} systems={systems.data} />
        <ReviewForm
          key={`${request.data.id}-${request.data.versionno}`}
          request={request.data}
          canEdit={canEdit}
          onReload={() => void request.refetch()}
        />
      </Stack>
    );
  } else if (request.error) {
    const notFound = request.error instanceof ApiError && request.error.status === 404;
    body = (
      <LoadError
        text={notFound ? request.error.message : MESSAGES.access.loadRequestsFailed}
        onRetry={notFound ? undefined : () => void request.refetch()}
      />
    );
  } else {
    body = <PageLoader label="Loading the request" />;
  }

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/app/user-requests" size="sm">
        <span aria-hidden>← </span>
        Back to User Requests Page
      </Anchor>
      <Title order={1}>{TITLE}</Title>
      {body}
    </Stack>
  );
}
