import type { DashboardItem, ResourceCategory } from '@portal/contract';

/** Resource categories and dashboard items for component tests (issue 23). */
export const category = (
  patch: Partial<ResourceCategory> & Pick<ResourceCategory, 'id' | 'name'>,
): ResourceCategory => ({
  parentId: null,
  order: 0,
  active: true,
  headless: false,
  ...patch,
});

export const HEADLESS = [
  category({ id: 1, name: 'Links', headless: true }),
  category({ id: 2, name: 'Downloads', headless: true }),
  category({ id: 3, name: 'eLearnings', headless: true }),
];

export const item = (patch: Partial<DashboardItem> & Pick<DashboardItem, 'id' | 'kind' | 'title'>): DashboardItem => ({
  description: '',
  categoryId: 1,
  order: 0,
  active: true,
  portalRoleIds: [4],
  url: null,
  file: null,
  entryPoint: null,
  hasImage: false,
  imageUrl: null,
  openUrl: 'https://network.example.org',
  updatedAt: '2026-11-26T06:00:00.000Z',
  ...patch,
});
