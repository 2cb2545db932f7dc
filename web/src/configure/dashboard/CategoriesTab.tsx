import { ActionIcon, Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { DASHBOARD_RESOURCE_MESSAGES as M, type ResourceCategory } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { describeFailure } from '../errors';
import { StatusBadge } from '../ListToolbar';
import { useResourceCategories } from './api/getResourceCategories';
import { invalidateResources } from './api/resourceKeys';
import { saveResourceCategory } from './api/saveResourceCategory';
import { categoryBody, categoryTree, reorder, type CategoryNode } from './categoryTree';
import { useResourceChange } from './useResourceChange';

interface RowActions {
  busy: boolean;
  move: (category: ResourceCategory, siblings: ResourceCategory[], step: -1 | 1) => void;
  change: ReturnType<typeof useResourceChange>['run'];
}

/** One category of the tree: its name (opens the editor), badges, the buttons, then its child categories. */
function CategoryRow({
  node,
  siblings,
  actions,
}: {
  node: CategoryNode;
  siblings: CategoryNode[];
  actions: RowActions;
}) {
  const { category } = node;
  const movable = siblings.filter((s) => !s.category.headless).map((s) => s.category);
  const place = movable.findIndex((c) => c.id === category.id);
  const target = { kind: 'category' as const, id: category.id, name: category.name };
  return (
    <li data-testid="category-row">
      <Paper withBorder p="xs" radius="sm">
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={paths.app.configure.resourceCategory.href(category.id)} fw={600}>
            {category.name}
          </Anchor>
          {category.headless && (
            <Badge variant="outline" color="gray" size="sm">
              No heading
            </Badge>
          )}
          <StatusBadge inactive={!category.active} />
          <Group gap={4} ml="auto">
            {!category.headless && (
              <>
                <ActionIcon
                  variant="default"
                  aria-label={`Move ${category.name} up`}
                  disabled={actions.busy || place <= 0}
                  onClick={() => actions.move(category, movable, -1)}
                >
                  <span aria-hidden>↑</span>
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  aria-label={`Move ${category.name} down`}
                  disabled={actions.busy || place < 0 || place >= movable.length - 1}
                  onClick={() => actions.move(category, movable, 1)}
                >
                  <span aria-hidden>↓</span>
                </ActionIcon>
              </>
            )}
            <Button
              size="compact-sm"
              variant="light"
              color={category.active ? 'gray' : 'green'}
              disabled={actions.busy}
              aria-label={`${category.active ? 'Deactivate' : 'Activate'} ${category.name}`}
              onClick={() => actions.change(target, category.active ? 'deactivate' : 'activate')}
            >
              {category.active ? 'Deactivate' : 'Activate'}
            </Button>
            {!category.headless && (
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                disabled={actions.busy}
                aria-label={`Delete ${category.name}`}
                onClick={() => actions.change(target, 'delete')}
              >
                Delete
              </Button>
            )}
          </Group>
        </Group>
      </Paper>
      {node.children.length > 0 && <CategoryList nodes={node.children} actions={actions} />}
    </li>
  );
}

/** A level of the tree as a list (nested lists carry the levels for screen readers). */
function CategoryList({ nodes, actions, label }: { nodes: CategoryNode[]; actions: RowActions; label?: string }) {
  return (
    <Stack
      component="ul"
      gap={6}
      p={0}
      m={0}
      mt={label ? 0 : 6}
      pl={label ? 0 : 'lg'}
      style={{ listStyle: 'none' }}
      aria-label={label}
    >
      {nodes.map((n) => (
        <CategoryRow key={n.category.id} node={n} siblings={nodes} actions={actions} />
      ))}
    </Stack>
  );
}

/**
 * 'Dashboard Categories' (issue 23 Screens; ADMIN): the resource categories as a tree with, per category, move
 * up / down among its siblings, activate / deactivate and delete (after confirmation); 'Create Category' opens
 * the editor. The headless categories (000 §9) come first and cannot be moved or deleted. Refusals, e.g.
 * 'Resource category has active child category(ies)' (001 §8), are shown above the tree.
 */
export function CategoriesTab() {
  const categories = useResourceCategories();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const change = useResourceChange({ onMessage: setMessage });
  const tree = useMemo(() => categoryTree(categories.data ?? []), [categories.data]);

  const move = useMutation({
    mutationFn: async (changes: { category: ResourceCategory; order: number }[]) => {
      // One after another: each is its own audited change.
      for (const { category, order } of changes) {
        await saveResourceCategory({ id: category.id, body: categoryBody(category, { order }) });
      }
    },
    onMutate: () => setMessage(null),
    onError: (error) => setMessage(describeFailure(error, M.saveCategoryFailed, {}).message),
    onSettled: () => invalidateResources(queryClient),
  });

  const actions: RowActions = {
    busy: change.pending || move.isPending,
    move: (category, siblings, step) => move.mutate(reorder(siblings, category.id, step)),
    change: change.run,
  };

  let body;
  if (categories.isError) {
    body = <LoadError text={M.loadCategories} onRetry={() => void categories.refetch()} />;
  } else if (categories.isPending) {
    body = <PageLoader label="Loading the categories" />;
  } else if (!tree.length) {
    body = <Text size="sm">No categories yet.</Text>;
  } else {
    body = <CategoryList nodes={tree} actions={actions} label="Resource categories" />;
  }
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Button component={Link} to={paths.app.configure.resourceCategory.href('new')}>
          Create Category
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Categories group the dashboard&apos;s items. Links, Downloads and eLearnings are shown first and without a
        heading; the others show their name as a heading, in the order below.
      </Text>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {body}
    </Stack>
  );
}
