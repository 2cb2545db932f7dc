import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS, type AccessModRequest, type System } from '@portal/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../lib/paths';
import { useHasPermissions } from '../lib/sessionQueries';
import { formatDateTime, orMissing } from '../shared/format';
import { useSystems } from '../shared/referenceData';
import { useAccessChangeRequest } from './api/getAccessChangeRequest';
import { RequestedAccess } from './review/RequestedAccess';
import { ReviewShell, ReviewItem as Item } from './review/ReviewShell';
import { ReviewForm, type ReviewValues } from './ReviewForm';

const TITLE = 'Review Access Change Request';

function RequestDetails({ request, systems }: { request: AccessModRequest; systems?: System[] }) {
  return (
    <Stack gap="md">
      <Paper withBorder p="md" component="section" aria-labelledby="request-heading">
        <Group justify="space-between" mb="sm">
          <Title order={2} id="request-heading">
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
          <Anchor component={Link} to={paths.app.userHistory.href(request.subjectUserId)} size="sm">
            View this user&apos;s request history
          </Anchor>
          {request.workflowUrl && (
            <Anchor href={request.workflowUrl} target="_blank" rel="noopener noreferrer" size="sm">
              Open workflow in Temporal UI
            </Anchor>
          )}
        </Group>
      </Paper>
      <RequestedAccess
        accessControls={request.accessControls}
        requesterComments={request.requesterComments}
        systems={systems}
        emptyText="No access blocks in this request."
      />
    </Stack>
  );
}

/**
 * Review Access Change Request /app/user-requests/access-change/:id (001 §2.8): READ_USERS sees it,
 * WRITE_USERS edits status, reviewer comments and external ticket number.
 */
export function ReviewAccessChangePage() {
  const id = Number(useParams().id);
  const canEdit = useHasPermissions('WRITE_USERS');
  const systems = useSystems();
  const request = useAccessChangeRequest(id);
  // What the reviewer typed before 'Reload request' (a stale save), put back on the fresh version.
  const [carried, setCarried] = useState<Partial<ReviewValues>>();
  return (
    <ReviewShell title={TITLE} id={id} request={request}>
      {(data) => (
        <Stack gap="md">
          <RequestDetails request={data} systems={systems.data} />
          <ReviewForm
            key={`${data.id}-${data.versionno}`}
            request={data}
            canEdit={canEdit}
            carried={carried}
            onReload={(kept) => {
              setCarried(kept);
              void request.refetch();
            }}
          />
        </Stack>
      )}
    </ReviewShell>
  );
}
