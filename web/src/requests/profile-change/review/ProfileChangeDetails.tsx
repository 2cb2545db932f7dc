import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { REQUEST_STATUS_LABELS, type ProfileChangeRequest } from '@portal/contract';
import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { formatDateTime, orMissing } from '../../../shared/format';
import { ReviewItem as Item } from '../../shared/review/ReviewShell';
import { SummaryHeading, WorkflowLink } from '../../shared/review/ReviewSummaryParts';

const ROWS = [
  { label: 'First Name', original: 'originalFirstName', requested: 'firstName' },
  { label: 'Last Name', original: 'originalLastName', requested: 'lastName' },
  { label: 'Email', original: 'originalEmail', requested: 'email' },
] as const;

/**
 * What a profile-change request asks for (001 §2.10, §3): whose request, when, 'Submitted By: Self', its status and
 * last change, 'View/Edit User' (the user detail, Back returning here), and the names and email when filed beside
 * the requested ones, changed values marked.
 */
export function ProfileChangeDetails({ request }: { request: ProfileChangeRequest }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="request-heading">
      <Stack gap="md">
        <SummaryHeading title="Request" status={REQUEST_STATUS_LABELS[request.requestStatus]} />
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
          <Item label="Requested User">
            {request.originalFirstName} {request.originalLastName} ({request.username})
          </Item>
          <Item label="Date Submitted">{formatDateTime(request.sysdat)}</Item>
          <Item label="Submitted By">Self</Item>
          <Item label="Request Status">{REQUEST_STATUS_LABELS[request.requestStatus]}</Item>
          <Item label="Date Modified">{formatDateTime(request.dchng)}</Item>
          <Item label="Last Modified By">{orMissing(request.lastModifiedBy)}</Item>
        </SimpleGrid>
        <Group gap="lg">
          <Anchor
            component={Link}
            to={paths.app.profileChangeReview.viewUser(request.portalUserId, request.id)}
            size="sm"
          >
            View/Edit User
          </Anchor>
          <WorkflowLink url={request.workflowUrl} />
        </Group>
        {/* Fixed layout, values wrapping anywhere: the three columns fit a phone without sideways scrolling. */}
        <Table withTableBorder striped layout="fixed" aria-label="Requested changes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Field</Table.Th>
              <Table.Th scope="col">When Submitted</Table.Th>
              <Table.Th scope="col">Requested</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ROWS.map((row) => {
              const changed = request[row.original] !== request[row.requested];
              return (
                <Table.Tr key={row.label}>
                  <Table.Th scope="row">{row.label}</Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{request[row.original]}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }} fw={changed ? 700 : undefined}>
                    {request[row.requested]}
                    {changed && (
                      <Badge ml="xs" size="xs" variant="light" color="orange">
                        changed
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <div>
          <Text size="sm" c="dimmed">
            Requester Comments
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{orMissing(request.requesterComments)}</Text>
        </div>
      </Stack>
    </Paper>
  );
}
