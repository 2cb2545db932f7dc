import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  ACCESS_DATE_MESSAGES,
  MESSAGES,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  USER_ACCESS_MESSAGES,
  type AccessModRequest,
  type System,
  type UserAccess,
} from '@portal/contract';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { useHasPermissions } from '../../../lib/sessionQueries';
import { useEditorReference } from '../../../shared/useAccessReference';
import { LoadError } from '../../../shared/ErrorAlert';
import { formatDateTime, joinOrMissing, orMissing } from '../../../shared/format';
import { PageLoader } from '../../../shared/PageLoader';
import { AccessEnd } from '../../../shared/AccessEnd';
import { systemNames, useSystems } from '../../../shared/referenceData';
import { useProxyCommentMarkers } from '../../../shared/portalSettings';
import { shownRequesterComment } from '../../../shared/requesterComment';
import { useAccessChangeRequest } from '../api/getAccessChangeRequest';
import { useAccessRecord, useReviewSubject } from '../api/getReviewSubject';
import { useAssignablePortalRoles } from '../../shared/api/getPortalRoles';
import { RequestedAccess } from '../../shared/review/RequestedAccess';
import { ReviewShell, ReviewItem as Item } from '../../shared/review/ReviewShell';
import { SummaryHeading, WorkflowLink } from '../../shared/review/ReviewSummaryParts';
import { useCarriedReload } from '../../shared/review/useCarriedReload';
import { ReviewForm, type ReviewValues } from './ReviewForm';

const TITLE = 'Review Access Change Request';

/** The access a CHANGE or REMOVAL was filed against, as it was then (001 §2.8 'the original access'). */
function OriginalAccess({ id, systems }: { id: number; systems?: System[] }) {
  const record = useAccessRecord(id);
  let body;
  if (record.isError) body = <Text c="red">{USER_ACCESS_MESSAGES.loadRecordsFailed}</Text>;
  else if (!record.data) body = <PageLoader label="Loading the original access" />;
  else body = <AccessItems access={record.data} systems={systems} />;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="original-access-heading">
      <Title order={2} mb="sm" id="original-access-heading">
        Original Access
      </Title>
      {body}
    </Paper>
  );
}

function AccessItems({ access, systems }: { access: UserAccess; systems?: System[] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="sm" m={0}>
      <Item label="Study Role">{access.roleName}</Item>
      <Item label="LAOs">{joinOrMissing(access.laoIds)}</Item>
      <Item label="AOs">{joinOrMissing(access.siteCodes)}</Item>
      <Item label="Studies">{joinOrMissing(access.studyNames)}</Item>
      <Item label="Systems">{joinOrMissing(systemNames(access.systemAccessIds, systems))}</Item>
      <Item label={ACCESS_DATE_MESSAGES.label}>
        <AccessEnd date={access.accessEndDate} soon={access.accessEndsSoon} />
      </Item>
    </SimpleGrid>
  );
}

function RequestDetails({ request, systems }: { request: AccessModRequest; systems?: System[] }) {
  const withOriginal = request.requestType !== 'NEW' && !!request.existingUserAccessId;
  const comments = shownRequesterComment(request, useProxyCommentMarkers(request.isProxyRequest));
  return (
    <Stack gap="md">
      <Paper withBorder p="md" component="section" aria-labelledby="request-heading">
        <SummaryHeading title="Request" status={REQUEST_STATUS_LABELS[request.requestStatus]} mb="sm" />
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
          <WorkflowLink url={request.workflowUrl} />
        </Group>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: withOriginal ? 2 : 1 }} spacing="md">
        <RequestedAccess
          accessControls={request.accessControls}
          requesterComments={comments.comment}
          proxyName={comments.proxyName}
          systems={systems}
          emptyText="No access blocks in this request."
        />
        {withOriginal && <OriginalAccess id={request.existingUserAccessId!} systems={systems} />}
      </SimpleGrid>
    </Stack>
  );
}

/** The review form once the requested user, the portal roles and the role blocks' reference data are loaded. */
function ReviewSection({
  request,
  canEdit,
  carried,
  onReload,
}: {
  request: AccessModRequest;
  canEdit: boolean;
  carried?: Partial<ReviewValues>;
  onReload: (kept: Partial<ReviewValues>) => void;
}) {
  const subject = useReviewSubject(request.subjectUserId);
  const roles = useAssignablePortalRoles();
  const reference = useEditorReference();
  if (subject.isError)
    return <LoadError text={MESSAGES.access.loadAccessFailed} onRetry={() => void subject.refetch()} />;
  if (roles.isError) return <LoadError text="Problem loading portal roles." onRetry={() => void roles.refetch()} />;
  if (reference.failed) return <LoadError text="Problem loading the access options." onRetry={reference.retry} />;
  // While the user is (re)loaded the form waits: it is built from their current roles and access.
  if (!subject.data || subject.isFetching || !roles.data || !reference.data) {
    return <PageLoader label="Loading the user's access" />;
  }
  return (
    <ReviewForm
      // A reload after a stale save brings the request and the user's roles and access afresh.
      key={`${request.id}-${request.versionno}-${subject.dataUpdatedAt}`}
      request={request}
      subject={subject.data}
      portalRoles={roles.data}
      reference={reference.data}
      canEdit={canEdit}
      carried={carried}
      onReload={(kept) => {
        void subject.refetch();
        onReload(kept);
      }}
    />
  );
}

/**
 * Review Access Change Request /app/user-requests/access-change/:id (001 §2.8): READ_USERS sees it, WRITE_USERS
 * edits the user's current access and portal roles (effective on saving) and the request's status, reviewer
 * comments and external ticket number.
 */
export function ReviewAccessChangePage() {
  const id = Number(useParams().id);
  const canEdit = useHasPermissions('WRITE_USERS');
  const systems = useSystems();
  const request = useAccessChangeRequest(id);
  const reload = useCarriedReload<ReviewValues>(() => request.refetch());
  return (
    <ReviewShell title={TITLE} id={id} request={request}>
      {(data) => (
        <Stack gap="md">
          <RequestDetails request={data} systems={systems.data} />
          <ReviewSection request={data} canEdit={canEdit} {...reload} />
        </Stack>
      )}
    </ReviewShell>
  );
}
