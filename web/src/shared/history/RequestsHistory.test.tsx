/**
 * The Requests History (001 §2.9; 000 §2 User detail / Profile): one's own (reviewer comments hidden, the
 * signed-in user's calls) and a viewed user's (reviewer comments shown, the user-id calls); the note; each
 * table newest first; filter boxes on the access and proxy sections only; '---' for missing values; phone
 * with extension; a failing section shown with its message while the others stay readable.
 */
import type { AccessModRequest, ProfileChangeRequest, Registration } from '@portal/contract';
import {
  LOAD_ALL_SIZE,
  MESSAGES,
  PROFILE_CHANGE_MESSAGES,
  proxyComment,
  REGISTRATION_MESSAGES,
  SIGNATURE_TEXTS,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, pageOf, reply, type Handler } from '../../testing/mockApi';
import { approvalView } from '../../testing/approvalFixtures';
import { referenceHandlers } from '../../testing/referenceFixtures';
import { profileChangeRequestFixture } from '../../testing/profileFixtures';
import { renderRoute } from '../../testing/render';
import { RequestsHistory } from './RequestsHistory';
import type { HistorySubject } from './historyQueries';

const access = (id: number, patch: Partial<AccessModRequest>): AccessModRequest => ({
  id,
  workflowId: `access-change-${id}`,
  requestType: 'NEW',
  requestStatus: 'NEW',
  requesterComments: '',
  reviewerComments: '',
  sysaidTicket: '',
  inactive: false,
  sysdat: '2026-01-01T10:00:00.000Z',
  dchng: '2026-01-01T10:00:00.000Z',
  lastModifiedBy: 'casey',
  subjectUserId: 7,
  proxyUserId: null,
  portalUserId: 7,
  firstName: 'Casey',
  lastName: 'Lapsed',
  email: 'casey@portal.test',
  isProxyRequest: false,
  proxyName: null,
  accessControls: [
    { roleName: 'Site Staff', siteCodes: ['A200'], laoIds: [], studyNames: ['STUDY-1'], systemAccessIds: [1] },
  ],
  versionno: 0,
  allowedNextStatuses: [],
  workflowUrl: null,
  ...patch,
});

const profileChange = (id: number, patch: Partial<ProfileChangeRequest>): ProfileChangeRequest =>
  profileChangeRequestFixture({ id, ...patch });

const registration = (id: number, patch: Partial<Registration>): Registration => ({
  id,
  versionno: 0,
  firstName: 'Pat',
  lastName: 'Proxied',
  jobTitle: '',
  organizationName: '',
  phoneNumber: '',
  phoneExtension: '',
  email: 'pat@portal.test',
  accessControls: [],
  requesterComments: '',
  reviewerComments: 'seen by support',
  sysaidTicket: '',
  registrationStatus: 'PENDING',
  portalRoleIds: [],
  isProxy: true,
  proxyUserId: 7,
  proxyName: 'Casey Lapsed',
  proxyEmail: 'casey@portal.test',
  proxyPhone: null,
  proxyPhoneExt: null,
  personCompletingThisFormEmail: '',
  personCompletingThisFormFullName: '',
  personCompletingThisFormPhoneNumber: '',
  personCompletingThisFormPhoneExtension: '',
  portalUserId: null,
  sysdat: '2026-01-01T10:00:00.000Z',
  dchng: '2026-01-02T10:00:00.000Z',
  lastModifiedBy: 'casey',
  workflowId: `registration-${id}`,
  workflowUrl: null,
  ...patch,
});

const ACCESS = [
  access(1, { sysdat: '2026-01-01T10:00:00.000Z', requesterComments: 'older one', reviewerComments: 'granted' }),
  access(2, { sysdat: '2026-03-01T10:00:00.000Z', requestType: 'CHANGE', requesterComments: 'newer one' }),
];
const CHANGES = [
  profileChange(5, { firstName: 'Kasey', sysdat: '2026-02-01T10:00:00.000Z', reviewerComments: 'name fixed' }),
  profileChange(6, { email: 'kasey@portal.test', sysdat: '2026-04-01T10:00:00.000Z', requestStatus: 'APPROVED' }),
];
const PROXIED = [
  registration(8, { phoneNumber: '555-0100', phoneExtension: '42', firstName: 'Robin' }),
  registration(9, { sysdat: '2026-05-01T10:00:00.000Z', firstName: 'Sam', email: 'sam@portal.test' }),
];

// mantine-datatable renders a cell only when its column's media query matches, and a column without one asks
// for the empty query; jsdom's stub (testing/setup.ts) matches nothing, so here the empty query matches.
const stubbedMatchMedia = window.matchMedia;
beforeEach(() => {
  window.matchMedia = (query: string) => ({ ...stubbedMatchMedia(query), matches: query === '' });
});
afterEach(() => {
  window.matchMedia = stubbedMatchMedia;
});

function renderHistory(subject: HistorySubject, handlers: Record<string, Handler>) {
  const api = mockApi({ ...referenceHandlers, ...handlers });
  renderRoute({ path: '/history', url: '/history', element: <RequestsHistory subject={subject} /> });
  return api;
}

/** The data rows of a table, each as its text. */
const rows = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .filter((r) => r.classList.contains('mantine-datatable-row'))
    .map((r) => r.textContent ?? '');
/** The columns a table's cells carry (each cell names its column for the stacked phone layout). */
const columnsOf = (name: string) => [
  ...new Set(
    [...screen.getByRole('table', { name }).querySelectorAll('td[data-label]')].map((c) =>
      c.getAttribute('data-label'),
    ),
  ),
];

describe('RequestsHistory', () => {
  it("one's own: the signed-in user's calls, the note, newest first, no reviewer comments, filters on two sections", async () => {
    const api = renderHistory(
      { self: true },
      {
        'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: ACCESS }),
        'GET /rest/secure/ldap_user_profile_mod_request/user': () => reply(200, pageOf(CHANGES)),
        'GET /rest/secure/user_management/user_registration/proxy': () => reply(200, pageOf(PROXIED)),
      },
    );
    expect(screen.getByText(MESSAGES.access.requestsNote)).toBeInTheDocument();
    await waitFor(() => expect(rows('Access requests')).toHaveLength(2));
    expect(rows('Access requests')[0]).toContain('newer one');
    expect(rows('Access requests')[1]).toContain('older one');
    await waitFor(() => expect(rows('Profile change requests')).toHaveLength(2));
    // Newest first; the email column shows only a changed email, '---' otherwise.
    expect(rows('Profile change requests')[0]).toContain('kasey@portal.test');
    expect(rows('Profile change requests')[1]).toContain('Kasey');
    expect(rows('Profile change requests')[1]).toContain('---');
    await waitFor(() => expect(rows('Registration-by-proxy requests')).toHaveLength(2));
    expect(rows('Registration-by-proxy requests')[0]).toContain('Sam');
    expect(rows('Registration-by-proxy requests')[1]).toContain('555-0100 ext. 42');

    expect(columnsOf('Access requests')).not.toContain('Reviewer Comments');
    expect(columnsOf('Profile change requests')).not.toContain('Reviewer Comments');
    expect(screen.queryByText('granted')).not.toBeInTheDocument();
    expect(screen.queryByText('name fixed')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Filter access requests' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Filter registration-by-proxy requests' })).toBeInTheDocument();
    expect(screen.getAllByRole('textbox')).toHaveLength(2);
    for (const h of ['Access Requests', 'Profile (Name/Email) Change Requests', 'Registration-by-Proxy Requests']) {
      expect(screen.getByRole('heading', { level: 2, name: h })).toBeInTheDocument();
    }
    expect(api.callsTo('GET /rest/secure/user_management/user_registration/proxy')[0]?.search).toContain('size=1000');
  });

  it("a viewed user's: the user-id calls, reviewer comments shown, a failing section keeps the others", async () => {
    const api = renderHistory(
      { self: false, userId: 7 },
      {
        'GET /rest/secure/user_access_mod_request/user/7': () => reply(200, pageOf(ACCESS)),
        'GET /rest/secure/ldap_user_profile_mod_request/user/7': () => reply(500, { message: 'boom' }),
        'GET /rest/secure/user_management/user_registration/proxy/7': () => reply(200, pageOf([])),
      },
    );
    await waitFor(() => expect(rows('Access requests')).toHaveLength(2));
    expect(columnsOf('Access requests')).toContain('Reviewer Comments');
    expect(rows('Access requests')[1]).toContain('granted');
    expect(await screen.findByText(PROFILE_CHANGE_MESSAGES.loadFailed)).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo('GET /rest/secure/user_management/user_registration/proxy/7')).toHaveLength(1),
    );
    expect(rows('Registration-by-proxy requests')).toHaveLength(0);
    expect(screen.queryByText(REGISTRATION_MESSAGES.loadUserProxyFailed)).not.toBeInTheDocument();
    expect(api.callsTo('GET /rest/secure/user_access_mod_request/user')).toHaveLength(0);
  });

  it("a viewed user's: every row of each list, in one load-all call each (000 §9)", async () => {
    // More than one page of the largest fetch (1,000) in each list, each answered as the API pages it.
    const paged =
      <T,>(all: T[]): Handler =>
      (call) => {
        const q = new URLSearchParams(call.search);
        const [n, size] = [Number(q.get('page') ?? 1), Number(q.get('size') ?? 300)];
        const content = all.slice((n - 1) * size, n * size);
        const totalPages = Math.max(1, Math.ceil(all.length / size));
        return reply(200, {
          ...pageOf(content),
          totalElements: all.length,
          size,
          number: n,
          totalPages,
          first: n === 1,
          last: n >= totalPages,
        });
      };
    const many = <T,>(n: number, make: (id: number) => T) => Array.from({ length: n }, (_, i) => make(i + 1));
    const api = renderHistory(
      { self: false, userId: 7 },
      {
        'GET /rest/secure/user_access_mod_request/user/7': paged(many(2_500, (id) => access(id, {}))),
        'GET /rest/secure/ldap_user_profile_mod_request/user/7': paged(many(1_250, (id) => profileChange(id, {}))),
        'GET /rest/secure/user_management/user_registration/proxy/7': paged(many(1_100, (id) => registration(id, {}))),
      },
    );
    // Each table's counter ('10 of N records shown'), in the order of the sections.
    const totals = () => screen.queryAllByText(/records shown$/).map((e) => e.textContent?.replace(/^\d+ of /, ''));
    await waitFor(() => expect(totals()).toEqual(['2500 records shown', '1250 records shown', '1100 records shown']), {
      timeout: 10_000,
    });
    for (const list of [
      'GET /rest/secure/user_access_mod_request/user/7',
      'GET /rest/secure/ldap_user_profile_mod_request/user/7',
      'GET /rest/secure/user_management/user_registration/proxy/7',
    ]) {
      const calls = api.callsTo(list);
      expect(calls, list).toHaveLength(1);
      expect(new URLSearchParams(calls[0]!.search).get('size'), list).toBe(String(LOAD_ALL_SIZE));
    }
  });

  it("a proxy-filed request's comment shows without its marker, under who filed it by proxy", async () => {
    const proxy = { name: 'Morgan Liaison', email: 'morgan@portal.test', id: 3 };
    const subject = { name: 'Casey Lapsed', email: 'casey@portal.test', id: 7 };
    const filed = access(3, {
      isProxyRequest: true,
      proxyName: 'Morgan Liaison',
      requesterComments: proxyComment('[Proxy request]', proxy, subject, 'needed for the new study'),
    });
    // A comment typed to look like the marker on one's own request stays as typed.
    const typed = access(4, { requesterComments: proxyComment('[Proxy request]', proxy, subject, 'self') });
    renderHistory(
      { self: true },
      {
        'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: [filed, typed] }),
        'GET /rest/secure/ldap_user_profile_mod_request/user': () => reply(200, pageOf([])),
        'GET /rest/secure/user_management/user_registration/proxy': () => reply(200, pageOf([])),
        'GET /rest/secure/portal_settings': () => reply(200, { proxyCommentMarkers: ['[Proxy request]'] }),
      },
    );
    await waitFor(() => expect(rows('Access requests')).toHaveLength(2));
    const table = screen.getByRole('table', { name: 'Access requests' });
    expect(await within(table).findByText('Submitted by proxy: Morgan Liaison')).toBeInTheDocument();
    expect(within(table).getByText('needed for the new study')).toBeInTheDocument();
    expect(within(table).getAllByText(/\[Proxy request\]/)).toHaveLength(1);
    expect(within(table).getAllByText(/^Submitted by proxy/)).toHaveLength(1);

    // The filter reads the comment and the note as shown, not the marker.
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Filter access requests' }), 'Submitted by proxy');
    await waitFor(() => expect(rows('Access requests')).toHaveLength(1));
    expect(rows('Access requests')[0]).toContain('needed for the new study');
  });

  it('reads the configured markers from the API: the current one and an earlier one are both recognised', async () => {
    const party = (name: string, id: number) => JSON.stringify({ name, email: `p${id}@portal.test`, id });
    const marked = (marker: string, comment: string) =>
      `${marker} proxy=${party('Morgan Liaison', 3)} subject=${party('Casey Lapsed', 7)}\n${comment}`;
    const current = access(3, {
      isProxyRequest: true,
      proxyName: 'Morgan Liaison',
      requesterComments: marked('[Filed by proxy]', 'under the current marker'),
    });
    const earlier = access(4, {
      isProxyRequest: true,
      proxyName: 'Morgan Liaison',
      requesterComments: marked('[Proxy request]', 'under an earlier marker'),
    });
    const api = renderHistory(
      { self: true },
      {
        'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: [current, earlier] }),
        'GET /rest/secure/ldap_user_profile_mod_request/user': () => reply(200, pageOf([])),
        'GET /rest/secure/user_management/user_registration/proxy': () => reply(200, pageOf([])),
        'GET /rest/secure/portal_settings': () =>
          reply(200, { proxyCommentMarkers: ['[Filed by proxy]', '[Proxy request]'] }),
      },
    );
    const table = await screen.findByRole('table', { name: 'Access requests' });
    expect(await within(table).findByText('under the current marker')).toBeInTheDocument();
    expect(within(table).getByText('under an earlier marker')).toBeInTheDocument();
    expect(within(table).getAllByText('Submitted by proxy: Morgan Liaison')).toHaveLength(2);
    expect(within(table).queryByText(/\[Filed by proxy\]|\[Proxy request\]/)).not.toBeInTheDocument();
    expect(api.callsTo('GET /rest/secure/portal_settings')).toHaveLength(1);
  });
});

describe('requests history, signatures on (docs/decisions.md "Electronic signatures")', () => {
  it("shows a signed decision's signature under its status, the columns as the spec lists them", async () => {
    const signed = {
      ...access(5, { requestStatus: 'APPROVED' }),
      signatures: [
        {
          id: 'sig-5',
          signerName: 'Rita Reviewer',
          signerUsername: 'rita',
          signedAt: '2026-12-03T10:15:00Z',
          meaning: 'Approved',
          method: 'PASSWORD',
          action: 'REQUEST_APPROVAL',
          valid: true,
        },
      ],
    };
    renderHistory(
      { self: true },
      {
        'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: [signed] }),
        'GET /rest/secure/ldap_user_profile_mod_request/user': () => reply(200, pageOf([])),
        'GET /rest/secure/user_management/user_registration/proxy': () => reply(200, pageOf([])),
      },
    );
    await waitFor(() => expect(rows('Access requests')).toHaveLength(1));
    const table = screen.getByRole('table', { name: 'Access requests' });
    const signature = await within(table).findByRole('list', { name: SIGNATURE_TEXTS.legend });
    expect(signature).toHaveTextContent(/Signed by Rita Reviewer \(rita\) on .* — Approved/);
    expect(signature).toHaveTextContent(SIGNATURE_TEXTS.matches);
  });
});

describe('requests history, approval stages (approval policies)', () => {
  it("keeps 'Pending Review' as the status, with the open stage on a line under it", async () => {
    const staged = access(6, { requestStatus: 'PENDING_REVIEW', approval: approvalView() });
    renderHistory(
      { self: true },
      {
        'GET /rest/secure/user_access_mod_request/user': () => reply(200, { content: [staged] }),
        'GET /rest/secure/ldap_user_profile_mod_request/user': () => reply(200, pageOf([])),
        'GET /rest/secure/user_management/user_registration/proxy': () => reply(200, pageOf([])),
      },
    );
    await waitFor(() => expect(rows('Access requests')).toHaveLength(1));
    const table = screen.getByRole('table', { name: 'Access requests' });
    const status = within(table).getByText('Pending Review');
    const line = within(table).getByText('Stage 1 of 2: LAO staff');
    expect(status.closest('td')).toBe(line.closest('td'));
  });
});
