/**
 * The proxy page's user table (001 §2.7 step 2) lists every user of the picked site, however many: one
 * load-all call of the Users list (000 §9 'page 1, size 1,000,000'), never a cut after some number of pages.
 */
import { LOAD_ALL_SIZE, type Page, type UserListRow } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../../testing/mockApi';
import { loadUsersAt } from './proxyUsers';

const MANY = 12_000;
const user = (id: number) => ({ id, firstName: 'U', lastName: `L${id}` }) as unknown as UserListRow;
const EVERYONE = Array.from({ length: MANY }, (_, i) => user(i + 1));

/** The Users list as the API answers it: any page of the site's users, the load-all size included. */
const usersAnswer = (search: string): Page<UserListRow> => {
  const q = new URLSearchParams(search);
  const page = Number(q.get('page') ?? 1);
  const size = Number(q.get('size') ?? 25);
  const content = EVERYONE.slice((page - 1) * size, page * size);
  const totalPages = Math.ceil(MANY / size);
  return {
    content,
    totalElements: MANY,
    numberOfElements: content.length,
    size,
    number: page,
    totalPages,
    first: page === 1,
    last: page >= totalPages,
    sort: 'person.lastName,asc',
  };
};

describe('loadUsersAt', () => {
  it('reads every user of a site of 12,000 in one load-all call', async () => {
    const api = mockApi({
      'GET /rest/secure/user_management/users': (call) => reply(200, usersAnswer(call.search)),
    });
    const rows = await loadUsersAt({ kind: 'ao', code: 'A100' });
    expect(rows).toHaveLength(MANY);
    const calls = api.callsTo('GET /rest/secure/user_management/users');
    expect(calls).toHaveLength(1);
    const q = new URLSearchParams(calls[0]!.search);
    expect(Object.fromEntries(q)).toEqual({
      siteCode: 'A100',
      page: '1',
      size: String(LOAD_ALL_SIZE),
      sort: 'person.lastName,asc',
    });
  });
});
