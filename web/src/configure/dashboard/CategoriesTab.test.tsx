/**
 * 'Dashboard Categories' (issue 23): the tree in display order (headless first, fixed in place), moving a
 * category among its siblings (only the categories whose order changes are saved), and a refused deactivation
 * shown as the server words it (001 §8 'Resource category has active child category(ies)').
 */
import { DASHBOARD_RESOURCE_MESSAGES as M, DASHBOARD_RESOURCE_PATHS as P } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { category, HEADLESS } from '../../testing/resourceFixtures';
import { CategoriesTab } from './CategoriesTab';

const CATEGORIES = [
  category({ id: 10, name: 'Training', order: 0 }),
  category({ id: 11, name: 'Policies', order: 0 }),
  category({ id: 12, name: 'Safety', parentId: 10 }),
  ...HEADLESS,
];

const render = () =>
  renderRoute({
    path: '/app/configure',
    url: '/app/configure?tab=resourceCategories',
    element: <CategoriesTab />,
    permissions: ['ADMIN', 'READ_USERS'],
  });

describe('dashboard categories', { timeout: 60_000 }, () => {
  it('lists the tree, headless first and fixed; moving a category saves the new order of those it passes', async () => {
    const api = mockApi({
      [`GET ${P.categories}`]: () => reply(200, CATEGORIES),
      [`PUT ${P.categories}/10`]: (call) => reply(200, { ...CATEGORIES[0], ...(call.body as object) }),
      [`PUT ${P.categories}/11`]: (call) => reply(200, { ...CATEGORIES[1], ...(call.body as object) }),
    });
    const { user } = render();
    const tree = await screen.findByRole('list', { name: 'Resource categories' });
    const top = within(tree)
      .getAllByTestId('category-row')
      .filter((row) => row.parentElement === tree)
      .map((row) => within(row).getAllByRole('link')[0]!.textContent);
    expect(top).toEqual(['Links', 'Downloads', 'eLearnings', 'Policies', 'Training']);
    expect(screen.queryByRole('button', { name: 'Delete Links' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move Links up' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Move Policies up' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Training up' }));
    await waitFor(() => expect(api.callsTo(`PUT ${P.categories}/11`)).toHaveLength(1));
    // Training (order 0) takes the first place as it was; Policies moves to 1.
    expect(api.callsTo(`PUT ${P.categories}/10`)).toHaveLength(0);
    expect(api.callsTo(`PUT ${P.categories}/11`)[0]!.body).toEqual({
      name: 'Policies',
      parentId: null,
      order: 1,
      active: true,
    });
  });

  it('shows a refused deactivation in the spec’s words', async () => {
    mockApi({
      [`GET ${P.categories}`]: () => reply(200, CATEGORIES),
      [`PUT ${P.categories}/deactivate/10`]: () =>
        reply(422, { fieldErrors: {}, globalErrors: [M.activeChildren], message: 'Invalid' }),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Training' }));
    expect(await screen.findByText(M.activeChildren)).toBeInTheDocument();
    expect(screen.getByText(M.saveCategoryFailed)).toBeInTheDocument();
  });

  it('asks before deleting', async () => {
    const api = mockApi({
      [`GET ${P.categories}`]: () => reply(200, CATEGORIES),
      [`DELETE ${P.categories}/11`]: () => reply(204),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Delete Policies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Category?' });
    expect(api.callsTo(`DELETE ${P.categories}/11`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete Category' }));
    await waitFor(() => expect(api.callsTo(`DELETE ${P.categories}/11`)).toHaveLength(1));
    expect(await screen.findByText(M.deleted)).toBeInTheDocument();
  });
});
