import {
  HEADLESS_RESOURCE_CATEGORIES,
  type DashboardItem,
  type DashboardResources,
  type ResourceCategory,
} from '@portal/contract';

/** A category on the dashboard with its own items and its child categories, each holding at least one item. */
export interface ResourceGroup {
  category: ResourceCategory;
  items: DashboardItem[];
  children: ResourceGroup[];
}

/**
 * The dashboard's resources as a tree (issue 23 Screens, 000 §9): the headless categories ('Links',
 * 'Downloads', 'eLearnings') first, in that order, then the other top-level categories; categories and items
 * keep the API's display order. Categories without items anywhere below them are left out.
 */
export function groupResources({ categories, items }: DashboardResources): ResourceGroup[] {
  const byParent = new Map<number | null, ResourceCategory[]>();
  const known = new Set(categories.map((c) => c.id));
  for (const c of categories) {
    // A category whose parent was not sent is shown at the top level rather than lost.
    const parent = c.parentId !== null && known.has(c.parentId) ? c.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  const build = (category: ResourceCategory, seen: Set<number>): ResourceGroup => {
    seen.add(category.id);
    return {
      category,
      items: items.filter((i) => i.categoryId === category.id),
      children: (byParent.get(category.id) ?? [])
        .filter((c) => !seen.has(c.id))
        .map((c) => build(c, seen))
        .filter(hasItems),
    };
  };
  const seen = new Set<number>();
  const headlessRank = (c: ResourceCategory) => {
    const rank = HEADLESS_RESOURCE_CATEGORIES.indexOf(c.name as (typeof HEADLESS_RESOURCE_CATEGORIES)[number]);
    return c.headless ? (rank < 0 ? HEADLESS_RESOURCE_CATEGORIES.length : rank) : Number.POSITIVE_INFINITY;
  };
  const top = [...(byParent.get(null) ?? [])].sort((a, b) => {
    const ra = headlessRank(a);
    const rb = headlessRank(b);
    return ra === rb ? 0 : ra < rb ? -1 : 1;
  });
  return top.map((c) => build(c, seen)).filter(hasItems);
}

function hasItems(group: ResourceGroup): boolean {
  return group.items.length > 0 || group.children.length > 0;
}
