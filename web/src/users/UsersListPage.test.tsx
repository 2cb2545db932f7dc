/**
 * The Users list screen (000 §2 Users list, §9): what it asks the API for (tab, page, size, sort, the
 * debounced filter), the columns and counter it shows.
 */
import type { Page, UserListRow } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { UsersListPage } from './UsersListPage';

const row: UserListRow = {
  id: 7,
  uuid: null,
  username: 'mliaison',
  firstName: 'Morgan',
  lastName: 'Liaison',
  email: 'laostaff@portal.test',
  organizationName: '',
  phoneNumber: '555-0100',
  phoneExtension: '',
  inactive: false,
  siteCodes: [],
  laoIds: ['MA036'],
  accessEndDate: null,
  accessEndsSoon: false,
};
const page = (content: UserListRow[]): Page<UserListRow> => ({
  content,
  totalElements: content.length,
  numberOfElements: content.length,
  size: 25,
  number: 1,
  totalPages: 1,
  first: true,
  last: true,
  sort: 'person.lastName,asc',
});

const LIST = 'GET /rest/secure/user_management/users';
const params = (search: string) => Object.fromEntries(new URLSearchParams(search));

function renderList(url = '/app/users') {
  return renderRoute({
    path: '/app/users',
    url,
    element: <UsersListPage />,
    permissions: ['READ_USERS'],
  });
}

describe('UsersListPage', () => {
  it('asks for the Active tab, 25 a page, by last name, and shows the counter', async () => {
    const api = mockApi({ [LIST]: () => reply(200, page([row])) });
    renderList();
    // mantine-datatable lays its rows out only in a real browser: the rows and the row link are checked by
    // tests/e2e/users-list.spec.ts; here the counter shows what arrived.
    expect(await screen.findByText('1 of 1 records shown')).toBeInTheDocument();
    expect(params(api.callsTo(LIST)[0]!.search)).toEqual({
      inactive: 'false',
      page: '1',
      size: '25',
      sort: 'person.lastName,asc',
    });
    expect(screen.getByRole('tab', { name: 'Active' })).toHaveAttribute('aria-selected', 'true');
  });

  it('reads the tab, page, size, sort and filter from the URL and sends the filter as OR', async () => {
    const api = mockApi({ [LIST]: () => reply(200, page([])) });
    renderList('/app/users?tab=inactive&page=2&size=50&sort=person.email,desc&filter=son');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    expect(params(api.callsTo(LIST)[0]!.search)).toEqual({
      inactive: 'true',
      page: '2',
      size: '50',
      sort: 'person.email,desc',
      filter: 'son',
      filterType: 'OR',
    });
    expect(screen.getByRole('tab', { name: 'Inactive' })).toHaveAttribute('aria-selected', 'true');
  });

  it('puts the typed filter in the request after the debounce, back on page 1', async () => {
    const api = mockApi({ [LIST]: () => reply(200, page([row])) });
    const { user, router } = renderList('/app/users?page=3');
    await screen.findByText('1 of 1 records shown');
    await user.type(screen.getByRole('textbox', { name: 'Filter users' }), 'Liai');
    await waitFor(() => expect(router.state.location.search).toBe('?filter=Liai'));
    await waitFor(() => expect(params(api.calls.at(-1)!.search)).toMatchObject({ filter: 'Liai', page: '1' }));
  });

  it('sorts by AO Member ID(s) and LAO Affiliation(s) on the server (000 §2)', async () => {
    // mantine-datatable renders a header only when its column's media query matches (a column without one asks
    // for the empty query); jsdom's stub (testing/setup.ts) matches nothing, so here the empty query matches.
    const stubbed = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...stubbed(query), matches: query === '' });
    onTestFinished(() => {
      window.matchMedia = stubbed;
    });
    const api = mockApi({ [LIST]: () => reply(200, page([row])) });
    const { user, router } = renderList('/app/users?sort=sites.siteCode,desc');
    await screen.findByText('1 of 1 records shown');
    expect(params(api.callsTo(LIST)[0]!.search)).toMatchObject({ sort: 'sites.siteCode,desc' });
    // Another column keeps the direction.
    await user.click(screen.getByText('LAO Affiliation(s)'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=sites.otherIdentifier%2Cdesc'));
    await waitFor(() => expect(params(api.calls.at(-1)!.search)).toMatchObject({ sort: 'sites.otherIdentifier,desc' }));
  });
});
