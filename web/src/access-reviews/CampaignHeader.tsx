import { Group, Progress, Select, Stack, Text } from '@mantine/core';
import type { MyAccessReviews } from '@portal/contract';
import { formatDateTime } from '../shared/format';

type MyCampaign = MyAccessReviews['campaigns'][number];

/**
 * The top of Access Reviews (issue 25): which open campaign (when the caller reviews in several), its deadline,
 * and a progress bar of the caller's decided items out of their total.
 */
export function CampaignHeader({
  campaigns,
  campaign,
  onPick,
}: {
  campaigns: MyCampaign[];
  campaign: MyCampaign;
  onPick: (id: number) => void;
}) {
  const decided = campaign.total - campaign.undecided;
  const percent = campaign.total ? Math.round((decided / campaign.total) * 100) : 100;
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="lg" wrap="wrap">
        <Select
          label="Campaign"
          data={campaigns.map((c) => ({ value: String(c.id), label: c.name }))}
          value={String(campaign.id)}
          onChange={(v) => v && onPick(Number(v))}
          allowDeselect={false}
          w={{ base: '100%', sm: 360 }}
        />
        <Text size="sm" pb={8}>
          <Text span fw={600}>
            Deadline:
          </Text>{' '}
          {formatDateTime(campaign.deadline)}
        </Text>
      </Group>
      <Text size="sm" id="review-progress-text">
        {decided} of {campaign.total} items decided
      </Text>
      <Progress value={percent} size="lg" aria-label="Decided items" aria-describedby="review-progress-text" />
    </Stack>
  );
}
