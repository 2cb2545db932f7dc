import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  ACCESS_DATE_MESSAGES,
  REQUEST_STATUS_LABELS,
  REQUEST_TYPE_LABELS,
  USER_ACCESS_MESSAGES,
  type AccessModRequest,
  type System,
  type UserAccess,
} from '@portal/contract';
import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { AccessEnd } from '../../../shared/AccessEnd';
import { OpenStageLine } from '../../../shared/approval/StagesPanel';
import { formatDateTime, joinOrMissing, orMissing } from '../../../shared/format';
import { PageLoader } from '../../../shared/PageLoader';
import { systemNames } from '../../../shared/referenceData';
import { useProxyCommentMarkers } from '../../../shared/portalSettings';
import { shownRequesterComment } from '../../../shared/requesterComment';
import { useAccessRecord } from '../api/getReviewSubject';
import { RequestedAccess } from '../../shared/review/RequestedAccess';
import { ReviewItem as Item } from '../../shared/review/ReviewShell';
import { SummaryHeading, WorkflowLink } from '../../shared/review/ReviewSummaryParts';

/**
 * The read-only part of an access-change request (001 §2.8): the request's facts, the requested access and,
 * for a CHANGE or REMOVAL, the original access. The review screen shows it above its form; the stage decision
 * page (approval policies) shows it alone, without the links a stage approver may not follow (`reviewerLinks`).
 */
/**
 * The access a CHANGE or REMOVAL was filed against, as it was then (001 §2.8 'the original access'): the
 * record the request came with (`embedded`, which whoever may read the request may read, a stage approver
 * without READ_USERS too), else the record read by its id (a request view without it).
 */
function OriginalAccess({
  id,
  embedded,
  systems,
}: {
  id: number;
  embedded: UserAccess | null | undefined;
  systems?: System[];
}) {
  const record = useAccessRecord(embedded === undefined ? id : null);
  let body;
  if (embedded === null) body = <Text>The original access record is no longer available.</Text>;
  else if (embedded) body = <AccessItems access={embedded} systems={systems} />;
  else if (record.isError) body = <Text c="red">{USER_ACCESS_MESSAGES.loadRecordsFailed}</Text>;
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

export function RequestDetails({
  request,
  systems,
  reviewerLinks = true,
}: {
  request: AccessModRequest;
  systems?: System[];
  /** The user's request history and the workflow link (User Support's). */
  reviewerLinks?: boolean;
}) {
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
          <Item label="Request Status">
            {REQUEST_STATUS_LABELS[request.requestStatus]}
            <OpenStageLine approval={request.approval} />
          </Item>
          <Item label="Date Modified">{formatDateTime(request.dchng)}</Item>
          <Item label="Last Modified By">{orMissing(request.lastModifiedBy)}</Item>
        </SimpleGrid>
        {reviewerLinks && (
          <Group mt="md" gap="lg">
            <Anchor component={Link} to={paths.app.userHistory.href(request.subjectUserId)} size="sm">
              View this user&apos;s request history
            </Anchor>
            <WorkflowLink url={request.workflowUrl} />
          </Group>
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: withOriginal ? 2 : 1 }} spacing="md">
        <RequestedAccess
          accessControls={request.accessControls}
          requesterComments={comments.comment}
          proxyName={comments.proxyName}
          systems={systems}
          emptyText="No access blocks in this request."
        />
        {withOriginal && (
          <OriginalAccess id={request.existingUserAccessId!} embedded={request.originalAccess} systems={systems} />
        )}
      </SimpleGrid>
    </Stack>
  );
}
