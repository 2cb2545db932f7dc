/**
 * The user detail screen (000 §2 User detail, §4 Saving / Country change / User status, §5): loading and its
 * failure, View User without WRITE_USERS, the internal lock, Save with 304, 422 and success, the country
 * clearing the state, and the status change behind 'Change User Status'.
 */
import {
  ACCESS_DATE_MESSAGES,
  SIGNATURE_HEADER,
  SIGNATURE_TEXTS,
  SIGNATURE_TICKET_PATH,
  USER_ACCESS_MESSAGES,
  type PortalRole,
  type UserDetail,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../testing/mockApi';
import { blankContact } from '../testing/profileFixtures';
import { referenceHandlers } from '../testing/referenceFixtures';
import { renderRoute } from '../testing/render';
import { UserDetailPage } from './UserDetailPage';

const BASE = '/rest/secure/user_management';
const roles: PortalRole[] = [
  { id: 1, description: 'Administrator', permissions: ['ADMIN'], inactive: false, sort: 1 },
  { id: 4, description: 'Network User', permissions: ['USER'], inactive: false, sort: 4 },
];
const person = (patch: Partial<UserDetail> = {}): UserDetail => ({
  id: 7,
  uuid: 'u-7',
  firstName: 'Casey',
  lastName: 'Lapsed',
  email: 'casey@portal.test',
  username: 'casey',
  gecos: 'Casey Lapsed',
  accountType: 'external',
  uidNumber: 60007,
  ...blankContact,
  organizationName: 'Org',
  state: 'ON',
  country: 'CA',
  inactive: false,
  portalRoleIds: [4],
  siteCodes: [],
  laoIds: [],
  sites: [],
  userAccesses: [],
  ...patch,
});

function renderDetail(
  url: string,
  handlers: Record<string, Handler>,
  permissions: ('ADMIN' | 'WRITE_USERS' | 'READ_USERS')[],
) {
  const api = mockApi({
    [`GET ${BASE}/portal_roles`]: () => reply(200, roles),
    'GET /rest/public/countries': () =>
      reply(200, [
        { country: 'CA', countryName: 'Canada' },
        { country: 'US', countryName: 'United States' },
      ]),
    'GET /rest/public/states/CA': () => reply(200, [{ state: 'ON', stateName: 'Ontario' }]),
    'GET /rest/public/states/US': () => reply(200, [{ state: 'TX', stateName: 'Texas' }]),
    // The Access tab's provisioned systems (tested in ProvisionedSystems.test.tsx): none.
    [`GET ${BASE}/user/7/provisioning`]: () => reply(200, []),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/users/:id',
    url,
    element: <UserDetailPage />,
    permissions,
    otherRoutes: [
      { path: '/app/users', element: <p>Users list</p> },
      { path: '/app/user-requests', element: <p>Requests queue</p> },
    ],
  });
  return { ...view, api };
}

const WRITER: ('WRITE_USERS' | 'READ_USERS')[] = ['WRITE_USERS', 'READ_USERS'];

/** A Data Manager record the Access tab tests show. */
const dmAccess = {
  id: 3,
  portalUserId: 7,
  entity: 'PortalUser' as const,
  formId: null,
  roleName: 'Data Manager',
  inactive: false,
  sites: [],
  siteCodes: [],
  laoIds: [],
  studyNames: ['STUDY-1'],
  accessEndDate: null,
  accessEndsSoon: false,
  systemAccessIds: [1],
  versionno: 2,
  priorAccessControlId: null,
  originalRevisionNumber: null,
  createdBy: 'admin',
  lastModifiedBy: 'admin',
  sysdat: '2026-01-01T00:00:00.000Z',
  dchng: '2026-01-01T00:00:00.000Z',
};

describe('user detail', () => {
  it("says 'Unable to load the specified user.' when the load fails", async () => {
    renderDetail(
      '/app/users/7',
      { [`GET ${BASE}/user/7`]: () => reply(404, { message: 'Problem loading user.' }) },
      WRITER,
    );
    expect(await screen.findByText('Unable to load the specified user.')).toBeInTheDocument();
  });

  it('is View User, read-only, without WRITE_USERS', async () => {
    renderDetail('/app/users/7', { [`GET ${BASE}/user/7`]: () => reply(200, person()) }, ['READ_USERS']);
    expect(await screen.findByRole('heading', { level: 1, name: 'View User Casey Lapsed' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'First Name' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change to Inactive' })).not.toBeInTheDocument();
  });

  it('locks the directory fields of an internal user unless the viewer is an admin', async () => {
    const internal = { [`GET ${BASE}/user/7`]: () => reply(200, person({ accountType: 'internal' })) };
    const { unmount } = renderDetail('/app/users/7', internal, WRITER);
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Gecos (optional)' })).toHaveAttribute('readonly');
    unmount();
    renderDetail('/app/users/7', internal, ['ADMIN', ...WRITER]);
    expect((await screen.findByRole('textbox', { name: 'Email' })).hasAttribute('readonly')).toBe(false);
  });

  it('saves: 304 info, 422 under the field, then success and back to returnUrl', async () => {
    const { user, api, router } = renderDetail(
      '/app/users/7?returnUrl=%2Fapp%2Fuser-requests&returnPage=User%20Requests',
      {
        [`GET ${BASE}/user/7`]: () => reply(200, person()),
        [`PUT ${BASE}/update_user`]: ({ body }) => {
          const b = body as UserDetail;
          if (b.firstName === 'Casey') return reply(304);
          if (b.firstName === 'Taken') return reply(422, { fieldErrors: { email: ['unique'] }, globalErrors: [] });
          return reply(200, person({ firstName: b.firstName }));
        },
      },
      WRITER,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit User Casey Lapsed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to User Requests/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('There are no changes to submit.')).toBeInTheDocument();

    const first = screen.getByRole('textbox', { name: 'First Name' });
    await user.clear(first);
    await user.type(first, 'Taken');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Email is already in use')).toBeInTheDocument();
    expect(screen.getByText('Unable to update the specified user due to one or more errors.')).toBeInTheDocument();

    await user.clear(first);
    await user.type(first, 'Cassie');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User Account Updated')).toBeInTheDocument();
    expect(await screen.findByText('Requests queue')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/user-requests');
    expect(api.callsTo(`PUT ${BASE}/update_user`).at(-1)!.body).toMatchObject({
      id: 7,
      firstName: 'Cassie',
      portalRoleIds: [4],
    });
  });

  it('a new country clears the state', async () => {
    const { user, api } = renderDetail(
      '/app/users/7?tab=details',
      { [`GET ${BASE}/user/7`]: () => reply(200, person()), [`PUT ${BASE}/update_user`]: () => reply(200, person()) },
      WRITER,
    );
    const country = await screen.findByRole('combobox', { name: 'Country (optional)' });
    await waitFor(() => expect(country).toHaveValue('Canada'));
    await user.click(country);
    await user.click(await screen.findByRole('option', { name: 'United States', hidden: true }));
    expect(screen.getByRole('combobox', { name: 'State (optional)' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.callsTo(`PUT ${BASE}/update_user`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${BASE}/update_user`)[0]!.body).toMatchObject({ country: 'US', state: null });
  });

  it("changes the status after 'Change User Status' and reloads the user", async () => {
    let inactive = false;
    const { user, api } = renderDetail(
      '/app/users/7',
      {
        [`GET ${BASE}/user/7`]: () => reply(200, person({ inactive })),
        [`PUT ${BASE}/deactivate_user/7`]: () => {
          inactive = true;
          return reply(200, person({ inactive }));
        },
      },
      WRITER,
    );
    await user.click(await screen.findByRole('button', { name: 'Change to Inactive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change User Status' });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await screen.findByRole('button', { name: 'Change to Active' })).toBeInTheDocument();
    expect(screen.getByTestId('user-status')).toHaveTextContent('Inactive');
    expect(api.callsTo(`PUT ${BASE}/deactivate_user/7`)).toHaveLength(1);
  });

  it('edits the access as role blocks on the Access tab and saves them with PUT user_access/user/{id}', async () => {
    const access = dmAccess;
    const SAVE = 'PUT /rest/secure/user_access/user/7';
    const { user, api } = renderDetail(
      '/app/users/7?tab=access',
      {
        ...referenceHandlers,
        'GET /rest/public/site_relation': () => reply(200, []),
        [`GET ${BASE}/user/7`]: () => reply(200, person({ userAccesses: [access] })),
        [SAVE]: () => reply(422, { fieldErrors: {}, globalErrors: ['REQUEST_IN_PROGRESS'] }),
      },
      WRITER,
    );
    expect(await screen.findByRole('group', { name: 'Role #1' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove role' }));
    expect(await screen.findByText('This user holds no access.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(USER_ACCESS_MESSAGES.requestInProgress)).toBeInTheDocument();
    expect(api.callsTo(SAVE)[0]!.body).toEqual({ userAccesses: [] });
  });

  it('shows an end date on the Access tab, marks one ending soon and saves a changed one (issue 25)', async () => {
    const SAVE = 'PUT /rest/secure/user_access/user/7';
    const access = { ...dmAccess, accessEndDate: '2027-03-01', accessEndsSoon: true };
    const { user, api } = renderDetail(
      '/app/users/7?tab=access',
      {
        ...referenceHandlers,
        'GET /rest/public/site_relation': () => reply(200, []),
        [`GET ${BASE}/user/7`]: () => reply(200, person({ userAccesses: [access] })),
        [SAVE]: () => reply(422, { fieldErrors: { 'userAccesses[0].accessEndDate': [ACCESS_DATE_MESSAGES.past] } }),
      },
      WRITER,
    );
    const field = await screen.findByLabelText(/^Access end date/);
    expect(field).toHaveValue('2027-03-01');
    expect(screen.getByText(ACCESS_DATE_MESSAGES.endsSoon)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '2027-06-30');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(ACCESS_DATE_MESSAGES.past)).toBeInTheDocument();
    expect(api.callsTo(SAVE)[0]!.body).toMatchObject({
      userAccesses: [{ id: 3, versionno: 2, roleName: 'Data Manager', accessEndDate: '2027-06-30' }],
    });
  });
});

describe('user detail, signatures on (docs/decisions.md "Electronic signatures")', () => {
  it("'Change User Status' keeps its question and gains the signing fields; the change carries its ticket", async () => {
    const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
    const { user, api } = renderDetail(
      '/app/users/7',
      {
        [`GET ${BASE}/user/7`]: () => reply(200, person()),
        'GET /rest/secure/portal_settings': () =>
          reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } }),
        [TICKET]: () => reply(200, { ticket: 'ticket-s', expiresAt: '2026-12-03T12:00:00Z' }),
        [`PUT ${BASE}/deactivate_user/7`]: () => reply(200, person({ inactive: true })),
      },
      WRITER,
    );
    await waitFor(() => expect(api.callsTo('GET /rest/secure/portal_settings')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Change to Inactive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change User Status' });
    expect(dialog).toHaveTextContent(/Change the status of .* to Inactive\?/);
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Approved');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'admin');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(api.callsTo(`PUT ${BASE}/deactivate_user/7`)).toHaveLength(1));
    const [change] = api.callsTo(`PUT ${BASE}/deactivate_user/7`);
    expect(change!.headers[SIGNATURE_HEADER]).toBe('ticket-s');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'USER_STATUS',
      decision: { method: 'PUT', path: `${BASE}/deactivate_user/7`, body: change!.body },
    });
    // The signing dialog's submit is its own: the detail's form around it saves nothing.
    expect(api.callsTo(`PUT ${BASE}/update_user`)).toHaveLength(0);
  });

  it("lists the person's signed decisions on the Account tab, a changed record marked", async () => {
    const signed = (patch: Record<string, unknown>) => ({
      signerName: 'Ada Admin',
      signerUsername: 'admin',
      signedAt: '2026-12-02T10:00:00Z',
      meaning: 'Approved',
      method: 'PASSWORD',
      valid: true,
      ...patch,
    });
    renderDetail(
      '/app/users/7',
      {
        [`GET ${BASE}/user/7`]: () =>
          reply(200, {
            ...person({ inactive: true }),
            signatures: [
              signed({ id: '2', action: 'USER_STATUS', method: 'PASSKEY' }),
              signed({ id: '1', action: 'USER_ACCESS_EDIT', meaning: 'Authored', valid: false }),
            ],
          }),
        'GET /rest/secure/portal_settings': () =>
          reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } }),
      },
      WRITER,
    );
    const section = await screen.findByRole('region', { name: SIGNATURE_TEXTS.signedDecisions });
    const lines = within(section).getAllByRole('listitem');
    expect(lines.map((l) => l.textContent)).toEqual([
      expect.stringMatching(/^Status changed: Signed by Ada Admin \(admin\) on .+ — Approved ?matches the record$/),
      expect.stringMatching(/^Access or portal roles edited: Signed by .+ — Authored.*does not match the record$/),
    ]);
  });

  it('shows no signed decisions section when the detail carries none', async () => {
    renderDetail('/app/users/7', { [`GET ${BASE}/user/7`]: () => reply(200, person()) }, WRITER);
    expect(await screen.findByRole('button', { name: 'Change to Inactive' })).toBeVisible();
    expect(screen.queryByRole('region', { name: SIGNATURE_TEXTS.signedDecisions })).not.toBeInTheDocument();
  });
});
