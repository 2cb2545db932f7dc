/**
 * The long lists of the growth bench (issue 24 Growth), measured through the real API routes: the review
 * queue (each status view), the Users list and the audit trail, each at its first page, its last page and two
 * filtered pages (a term no row carries, one carried by 1 % of the rows). One request at a time over a
 * kept-alive connection; p95 in milliseconds, the median over rounds.
 */
import { AUDIT_SORT_FIELDS, USER_SORT_FIELDS, UserRequestsStatusSchema } from '@portal/contract';
import { USER_REQUEST_SORT_FIELDS } from '../../api/src/features/requests/queue-sql';
import { ABSENT_TERM, RARE_TERM } from './growth-seed';
import { keepAliveClient, percentile } from './timing';

/** Every status view of the queue (000 §7 user_requests/{status}). */
const QUEUE_STATUSES = UserRequestsStatusSchema.options;

/** One list view to time: a name and the URL of its first page (`page=1` is replaced for the last page). */
export interface ListView {
  /** 'baseline': a secure call that reads no list, timed beside them (the host's own pace at each size). */
  list: 'queue' | 'users' | 'audit' | 'baseline';
  view: string;
  url: string;
}

const queueUrl = (status: string, extra = '', sort = 'dateSubmitted,desc') =>
  `/rest/secure/user_management/user_requests/${status}?page=1&size=25&sort=${sort}${extra}`;
const usersUrl = (extra = '', sort = 'person.lastName,asc') =>
  `/rest/secure/user_management/users?page=1&size=25&sort=${sort}${extra}`;
const auditUrl = (extra = '', sort = 'at,desc') => `/rest/secure/audit_trail?page=1&size=25&sort=${sort}${extra}`;

/** Every other order of a list (each sort field in both directions, less the default one the views above time). */
const otherOrders = (fields: readonly string[], defaultSort: string): string[] =>
  fields.flatMap((f) => [`${f},asc`, `${f},desc`]).filter((s) => s !== defaultSort);

/**
 * Every sortable order of the three long lists, unfiltered, at its first and last page: a page in an order
 * without an index of its own sorts the whole list.
 */
export const SORT_VIEWS: ListView[] = [
  ...otherOrders(USER_REQUEST_SORT_FIELDS, 'dateSubmitted,desc').map((s) => ({
    list: 'queue' as const,
    view: `sort ${s}`,
    url: queueUrl('all', '', s),
  })),
  ...otherOrders(USER_SORT_FIELDS, 'person.lastName,asc').map((s) => ({
    list: 'users' as const,
    view: `sort ${s}`,
    url: usersUrl('', s),
  })),
  ...otherOrders(AUDIT_SORT_FIELDS, 'at,desc').map((s) => ({
    list: 'audit' as const,
    view: `sort ${s}`,
    url: auditUrl('', s),
  })),
];

/** The views the bench times at every size. */
export const LIST_VIEWS: ListView[] = [
  ...QUEUE_STATUSES.map((s) => ({ list: 'queue' as const, view: s, url: queueUrl(s) })),
  { list: 'queue', view: 'filter none', url: queueUrl('all', `&filter=${ABSENT_TERM}&filterType=OR`) },
  { list: 'queue', view: 'filter 1%', url: queueUrl('all', `&filter=${RARE_TERM}&filterType=OR`) },
  { list: 'users', view: 'active tab', url: usersUrl() },
  { list: 'users', view: 'filter none', url: usersUrl(`&filter=${ABSENT_TERM}&filterType=OR`) },
  { list: 'users', view: 'filter 1%', url: usersUrl(`&filter=${RARE_TERM}&filterType=OR`) },
  { list: 'audit', view: 'all', url: auditUrl() },
  { list: 'audit', view: 'filter none', url: auditUrl(`&filter=${ABSENT_TERM}`) },
  { list: 'audit', view: 'filter 1%', url: auditUrl(`&filter=${RARE_TERM}`) },
  ...SORT_VIEWS,
  { list: 'baseline', view: 'granted permissions', url: '/rest/secure/user_capabilities/granted_permissions' },
];

/** One measured figure: a view's page at a size. */
export interface ListFigure {
  list: string;
  view: string;
  page: 'first' | 'last';
  size: number;
  /** Rows the view matched (the page's totalElements). */
  matching: number;
  p95Ms: number;
}

/**
 * Times every view's first page and (when it has more than one) last page `times` times each after `warmUp`
 * untimed calls, at `base` with `headers` (a reviewer's session), in `rounds` rounds over all the views: a
 * figure is the median of a page's p95 over the rounds, so a few seconds of a busy host (the 2 shared cores
 * also run Temporal, the worker and the bench itself) move one round of a few pages, not the figure. `size`:
 * the seeded size, for the figures.
 */
export async function measureLists(opts: {
  base: string;
  headers: Record<string, string>;
  size: number;
  times: number;
  warmUp: number;
  rounds: number;
}): Promise<ListFigure[]> {
  const client = keepAliveClient(opts.base, opts.headers);
  try {
    const pages: Array<{ view: ListView; page: 'first' | 'last'; url: string; matching: number; p95s: number[] }> = [];
    for (const v of LIST_VIEWS) {
      // The baseline call answers no page: no total, no last page.
      const first = JSON.parse((await client.get(v.url)).toString()) as { totalPages?: number; totalElements?: number };
      const matching = first.totalElements ?? 0;
      pages.push({ view: v, page: 'first', url: v.url, matching, p95s: [] });
      // Filtered views are timed at their first page only (the "a filtered page").
      if (!v.view.startsWith('filter') && (first.totalPages ?? 0) > 1)
        pages.push({
          view: v,
          page: 'last',
          url: v.url.replace('page=1', `page=${first.totalPages}`),
          matching,
          p95s: [],
        });
    }
    for (let round = 0; round < opts.rounds; round++) {
      for (const p of pages) {
        for (let i = 0; i < opts.warmUp; i++) await client.get(p.url);
        const ms: number[] = [];
        for (let i = 0; i < opts.times; i++) {
          const started = performance.now();
          await client.get(p.url);
          ms.push(performance.now() - started);
        }
        p.p95s.push(percentile(ms, 95));
      }
    }
    return pages.map((p) => ({
      list: p.view.list,
      view: p.view.view,
      page: p.page,
      size: opts.size,
      matching: p.matching,
      p95Ms: percentile(p.p95s, 50),
    }));
  } finally {
    client.close();
  }
}
