import { HEADLESS_RESOURCE_CATEGORIES, type ResourceCategory, type ResourceCategoryBody } from '@portal/contract';

/** A category with its child categories, in display order. */
export interface CategoryNode {
  category: ResourceCategory;
  children: CategoryNode[];
}

const headlessRank = (c: ResourceCategory) =>
  c.headless ? HEADLESS_RESOURCE_CATEGORIES.indexOf(c.name as (typeof HEADLESS_RESOURCE_CATEGORIES)[number]) : -1;

/**
 * Siblings in display order (000 §9): the headless categories first in the spec's order ('Links', 'Downloads',
 * 'eLearnings'), then by order, then by name.
 */
export function sortSiblings(categories: readonly ResourceCategory[]): ResourceCategory[] {
  return [...categories].sort((a, b) => {
    if (a.headless !== b.headless) return a.headless ? -1 : 1;
    if (a.headless) return headlessRank(a) - headlessRank(b);
    return a.order - b.order || a.name.localeCompare(b.name);
  });
}

/** The categories as a tree; a category whose parent is unknown is shown at the top level. */
export function categoryTree(categories: readonly ResourceCategory[]): CategoryNode[] {
  const ids = new Set(categories.map((c) => c.id));
  const parentOf = (c: ResourceCategory) => (c.parentId !== null && ids.has(c.parentId) ? c.parentId : null);
  const build = (parent: number | null, seen: Set<number>): CategoryNode[] =>
    sortSiblings(categories.filter((c) => parentOf(c) === parent && !seen.has(c.id))).map((category) => {
      seen.add(category.id);
      return { category, children: build(category.id, seen) };
    });
  return build(null, new Set());
}

/** The ids of `id` and every category below it (a category cannot move under one of these). */
export function selfAndDescendants(categories: readonly ResourceCategory[], id: number): Set<number> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of categories) {
      if (c.parentId !== null && out.has(c.parentId) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
    }
  }
  return out;
}

/** A category's place in the tree as text, 'Parent › Child' (the category selects). */
export function categoryPath(categories: readonly ResourceCategory[], id: number): string {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const names: string[] = [];
  const seen = new Set<number>();
  for (let c = byId.get(id); c && !seen.has(c.id); c = c.parentId === null ? undefined : byId.get(c.parentId)) {
    seen.add(c.id);
    names.unshift(c.name);
  }
  return names.join(' › ');
}

/** The save body of a category as it is, with `changes` applied. */
export const categoryBody = (
  c: ResourceCategory,
  changes: Partial<ResourceCategoryBody> = {},
): ResourceCategoryBody => ({
  name: c.name,
  parentId: c.parentId,
  order: c.order,
  active: c.active,
  ...changes,
});

/**
 * Moving `id` one place up (-1) or down (+1) among its movable siblings (the headless ones keep their place):
 * the new order numbers, 0, 1, 2, …, of the siblings whose number changes.
 */
export function reorder(
  siblings: readonly ResourceCategory[],
  id: number,
  step: -1 | 1,
): { category: ResourceCategory; order: number }[] {
  const movable = sortSiblings(siblings).filter((c) => !c.headless);
  const from = movable.findIndex((c) => c.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= movable.length) return [];
  const next = [...movable];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next.map((category, order) => ({ category, order })).filter(({ category, order }) => category.order !== order);
}
