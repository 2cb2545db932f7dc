import { Paper, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden, type TitleOrder } from '@mantine/core';
import { DASHBOARD_RESOURCE_MESSAGES, type DashboardItem } from '@portal/contract';
import { useMemo } from 'react';
import { LoadError } from '../../shared/ErrorAlert';
import { ResourceCard } from '../../shared/resources/ResourceCard';
import { useDashboardResources } from './api/getDashboardResources';
import { groupResources, type ResourceGroup } from './resourceGroups';

const HEADING_ID = 'dashboard-resources-heading';

/** A category's items as a list of cards. */
function ItemGrid({ items, label }: { items: DashboardItem[]; label: string }) {
  return (
    <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0} aria-label={label}>
      {items.map((item) => (
        <ResourceCard key={item.id} item={{ ...item, imageSrc: item.imageUrl }} />
      ))}
    </SimpleGrid>
  );
}

/**
 * A category: headless ones (000 §9) show only their cards; the others their name as a heading one level below
 * their parent's, then their cards, then their child categories.
 */
function CategoryGroup({ group, level }: { group: ResourceGroup; level: number }) {
  const { category } = group;
  const children = group.children.map((child) => (
    <CategoryGroup key={child.category.id} group={child} level={level + 1} />
  ));
  if (category.headless) {
    return (
      <>
        {group.items.length > 0 && <ItemGrid items={group.items} label={category.name} />}
        {children}
      </>
    );
  }
  const id = `resource-category-${category.id}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={Math.min(level, 6) as TitleOrder} size="h4" id={id}>
        {category.name}
      </Title>
      {group.items.length > 0 && <ItemGrid items={group.items} label={category.name} />}
      {children}
    </Stack>
  );
}

/**
 * 'Resources' on the dashboard (issue 23 Screens; 000 §6 "portal roles also control dashboard visibility"):
 * the links, downloads and e-learning packages tied to one of the person's portal roles, grouped by category,
 * the three headless categories first. Loads on its own, beside the rest of the dashboard; says so when there
 * is nothing, and offers a retry when loading failed.
 */
export function ResourcesSection() {
  const resources = useDashboardResources();
  const groups = useMemo(() => (resources.data ? groupResources(resources.data) : []), [resources.data]);
  let body;
  if (resources.isError) {
    body = <LoadError text={DASHBOARD_RESOURCE_MESSAGES.loadItems} onRetry={() => void resources.refetch()} />;
  } else if (resources.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <VisuallyHidden>Loading your resources</VisuallyHidden>
        <Skeleton height={96} />
      </div>
    );
  } else if (!groups.length) {
    body = <Text size="sm">No resources have been shared with your portal roles yet.</Text>;
  } else {
    body = groups.map((g) => <CategoryGroup key={g.category.id} group={g} level={3} />);
  }
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={HEADING_ID}>
      <Stack gap="md">
        <Title order={2} id={HEADING_ID}>
          Resources
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
