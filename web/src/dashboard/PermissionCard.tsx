import { Badge, Group, List, Paper, Text, Title } from '@mantine/core';
import type { DashboardSummary } from '@portal/contract';

/**
 * What the signed-in user may do (000 §6: "a user gets the highest permission among their portal roles";
 * portal roles control dashboard visibility): the highest permission and what it and the permissions it
 * carries grant, in the words of 000 §6.
 */
export function PermissionCard({ summary }: { summary: DashboardSummary }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dashboard-permission-heading">
      <Group gap="sm" mb="xs">
        <Title order={2} id="dashboard-permission-heading">
          What you can do here
        </Title>
        {summary.highestPermission && (
          <Badge variant="light" data-testid="highest-permission">
            {summary.highestPermission}
          </Badge>
        )}
      </Group>
      {summary.grants.length ? (
        <List size="sm" spacing={4} data-testid="permission-grants">
          {summary.grants.map((g) => (
            <List.Item key={g}>{g}</List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm">Your portal roles grant no permissions. Contact User Support for access.</Text>
      )}
    </Paper>
  );
}
