import { Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { ACCESS_DATE_MESSAGES, type AccessControl, type System } from '@portal/contract';
import { AccessEnd } from '../../../shared/AccessEnd';
import { joinOrMissing } from '../../../shared/format';
import { systemNames } from '../../../shared/referenceData';
import { proxyNote } from '../../../shared/requesterComment';
import { ReviewItem as Item } from './ReviewShell';

function RequestedRole({ block, index, systems }: { block: AccessControl; index: number; systems?: System[] }) {
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
        {block.accessEndDate !== undefined && (
          <Item label={ACCESS_DATE_MESSAGES.label}>
            <AccessEnd date={block.accessEndDate} soon={false} />
          </Item>
        )}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * The 'Requested Access' section of every review screen (001 §2.4, §2.8): the requested role blocks, read-only,
 * and the requester's comments, described by who filed them when a proxy did (`proxyName`). `emptyText` is
 * shown when the request carries no block.
 */
export function RequestedAccess({
  accessControls,
  requesterComments,
  proxyName,
  systems,
  emptyText,
}: {
  accessControls: AccessControl[];
  requesterComments: string;
  /** The proxy who filed the request, shown as the comments' description (and read with them). */
  proxyName?: string | null;
  systems?: System[];
  emptyText: string;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="requested-access-heading">
      <Title order={2} mb="sm" id="requested-access-heading">
        Requested Access
      </Title>
      <Stack gap="sm">
        {accessControls.length === 0 && <Text c="dimmed">{emptyText}</Text>}
        {accessControls.map((block, i) => (
          <RequestedRole key={`${block.roleName}-${i}`} block={block} index={i} systems={systems} />
        ))}
        <Textarea
          label="Requester Comments"
          description={proxyName ? proxyNote(proxyName) : undefined}
          value={requesterComments || ''}
          placeholder="---"
          readOnly
          autosize
          minRows={2}
        />
      </Stack>
    </Paper>
  );
}
