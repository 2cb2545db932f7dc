import { Anchor, Stack, Tabs, TextInput, Title } from '@mantine/core';
import {
  CONSTANTS,
  USERS_DEFAULT_SORT,
  USERS_LIST_MESSAGES,
  USER_SORT_FIELDS,
  type UserListRow,
  type UserSortField,
} from '@portal/contract';
import type { DataTableSortStatus } from 'mantine-datatable';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { AccessEnd } from '../shared/AccessEnd';
import { CondensedList } from '../shared/CondensedList';
import { ServerDataTable } from '../shared/DataTable';
import { LoadError } from '../shared/ErrorAlert';
import { orMissing } from '../shared/format';
import { BoundedText } from '../shared/TableCells';
import { pageFromUrl, urlPaging, useUrlFilter, useUrlView } from '../shared/urlView';
import { usePageTitle } from '../shared/usePageTitle';
import { useUsers } from './api/getUsers';

const DEFAULT_SIZE = CONSTANTS.usersDefaultPageSize;

/** Table columns and the API's sort keys (000 §7 person.* and sites.*); every column sorts on the server. */
const SORT_KEYS: Partial<Record<keyof UserListRow, UserSortField>> = {
  firstName: 'person.firstName',
  lastName: 'person.lastName',
  email: 'person.email',
  organizationName: 'person.organizationName',
  siteCodes: 'sites.siteCode',
  laoIds: 'sites.otherIdentifier',
  phoneNumber: 'person.phoneNumber',
};
const columnOf = (sortKey: string) => Object.entries(SORT_KEYS).find(([, k]) => k === sortKey)?.[0];

/** The sort in the URL ('person.lastName,asc'), or the default when absent or not one of the spec's keys. */
function sortFromUrl(value: string | null): DataTableSortStatus<UserListRow> {
  const [key = '', dir] = (value ?? USERS_DEFAULT_SORT).split(',');
  const known = (USER_SORT_FIELDS as readonly string[]).includes(key) ? key : USERS_DEFAULT_SORT.split(',')[0]!;
  return { columnAccessor: columnOf(known)!, direction: dir === 'desc' ? 'desc' : 'asc' };
}

/**
 * Users /app/users (000 §2 Users list, §7 GET users, §9): the Active and Inactive tabs, the 'Filter users'
 * box (500 ms debounce, OR over names, email, organization, phone and site codes on the server), server paging
 * (page sizes 10-200, default 25) and sorting (default last name ascending). Tab, page, size, sort and filter
 * live in the URL; a row opens the user detail, whose Back link returns to this same view.
 */
export function UsersListPage() {
  usePageTitle('Users');
  const navigate = useNavigate();
  const location = useLocation();
  const { search, update } = useUrlView();
  const inactive = search.get('tab') === 'inactive';
  const { page, size } = pageFromUrl(search, DEFAULT_SIZE);
  const sortStatus = sortFromUrl(search.get('sort'));
  const sort = `${SORT_KEYS[sortStatus.columnAccessor as keyof UserListRow]},${sortStatus.direction}`;
  const [filter, setFilter] = useUrlFilter(search, update);

  const users = useUsers({ inactive, page, size, sort, filter: search.get('filter') ?? '' });
  const detail = (row: UserListRow) => paths.app.users.detail(row.id, `${location.pathname}${location.search}`);

  // One panel shows at a time (keepMounted false): the filter and the table move with the selected tab.
  const panel = (
    <Stack gap="md">
      <TextInput
        label="Filter users"
        placeholder="Name, email, organization, phone, site code…"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        w={{ base: '100%', sm: 360 }}
        maxLength={256}
      />
      {users.isError && <LoadError text={USERS_LIST_MESSAGES.loadFailed} onRetry={() => void users.refetch()} />}
      <ServerDataTable<UserListRow>
        ariaLabel={inactive ? 'Inactive users' : 'Active users'}
        {...urlPaging(users.data, { page, size }, update, DEFAULT_SIZE)}
        onPageChange={(p) => update({ page: p === 1 ? null : String(p) })}
        fetching={users.isFetching}
        sortStatus={sortStatus}
        onSortStatusChange={(s) =>
          update({ sort: `${SORT_KEYS[s.columnAccessor as keyof UserListRow]},${s.direction}`, page: null })
        }
        onRowClick={(row) => navigate(detail(row))}
        columns={[
          {
            accessor: 'firstName',
            title: 'First Name',
            sortable: true,
            render: (r) => (
              <Anchor component={Link} to={detail(r)} onClick={(e) => e.stopPropagation()} size="sm">
                {r.firstName}
              </Anchor>
            ),
          },
          // Long names and addresses wrap inside a bounded width, so the table stays as wide as the page at
          // 1280 px whatever the data (000 §2 Users list: every column in view).
          {
            accessor: 'lastName',
            title: 'Last Name',
            sortable: true,
            render: (r) => <BoundedText text={r.lastName} maw="9rem" />,
          },
          {
            accessor: 'email',
            title: 'Email',
            sortable: true,
            render: (r) => <BoundedText text={r.email} maw="12rem" />,
          },
          {
            accessor: 'organizationName',
            title: 'Organization',
            sortable: true,
            render: (r) => <BoundedText text={r.organizationName} maw="10rem" />,
          },
          {
            accessor: 'siteCodes',
            title: 'AO Member ID(s)',
            sortable: true,
            render: (r) => <CondensedList items={r.siteCodes} noun={['AO', 'AOs']} />,
          },
          {
            accessor: 'laoIds',
            title: 'LAO Affiliation(s)',
            sortable: true,
            render: (r) => <CondensedList items={r.laoIds} noun={['LAO', 'LAOs']} />,
          },
          { accessor: 'phoneNumber', title: 'Phone', sortable: true, render: (r) => orMissing(r.phoneNumber) },
          {
            accessor: 'accessEndDate',
            title: 'Access Ends',
            render: (r) => (r.accessEndDate ? <AccessEnd date={r.accessEndDate} soon={r.accessEndsSoon} /> : null),
          },
        ]}
      />
    </Stack>
  );

  return (
    <Stack gap="md">
      <Title order={1}>Users</Title>
      <Tabs
        value={inactive ? 'inactive' : 'active'}
        onChange={(tab) => update({ tab: tab === 'inactive' ? 'inactive' : null, page: null })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="active">Active</Tabs.Tab>
          <Tabs.Tab value="inactive">Inactive</Tabs.Tab>
        </Tabs.List>
        {(['active', 'inactive'] as const).map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            {panel}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
