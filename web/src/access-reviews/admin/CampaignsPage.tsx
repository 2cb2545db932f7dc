import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { MessageAlert } from '../../shared/ErrorAlert';
import { useUrlView } from '../../shared/urlView';
import { usePageTitle } from '../../shared/usePageTitle';
import { CampaignsTab } from './CampaignsTab';
import { SchedulesTab } from './SchedulesTab';

/**
 * Access Review Campaigns /app/access-review-campaigns (issue 25, ADMIN): the campaigns (paged) and, on the
 * `recurring` tab, the recurring reviews; 'New campaign' opens the form. A message passed in the navigation
 * state (a recurring review just saved) is shown on top.
 */
export function CampaignsPage() {
  usePageTitle('Access Review Campaigns');
  const { search, update } = useUrlView();
  const location = useLocation();
  const saved = (location.state as { message?: string } | null)?.message;
  const tab = search.get('tab') === 'recurring' ? 'recurring' : 'campaigns';
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Access Review Campaigns</Title>
        <Button component={Link} to={paths.app.accessReviewCampaigns.create.href}>
          New campaign
        </Button>
      </Group>
      {saved && <MessageAlert message={{ kind: 'success', text: saved }} />}
      <Text size="sm" c="dimmed" maw={720}>
        A campaign asks reviewers to keep or remove each access record in its scope until its deadline; at close,
        undecided items get the campaign&apos;s default and every removal is applied.
      </Text>
      <Tabs
        value={tab}
        onChange={(v) => update({ tab: v === 'recurring' ? 'recurring' : null, page: null, size: null })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="campaigns">Campaigns</Tabs.Tab>
          <Tabs.Tab value="recurring">Recurring reviews</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="campaigns" pt="md">
          <CampaignsTab />
        </Tabs.Panel>
        <Tabs.Panel value="recurring" pt="md">
          <SchedulesTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
