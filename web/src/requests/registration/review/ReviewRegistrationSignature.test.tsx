/**
 * Signing a registration's approval and denial (docs/decisions.md "Electronic signatures"): with signatures on,
 * 'Create User' asks for the signature and the approval carries its ticket, asked for with exactly the body
 * sent; 'Reject' asks its question with the signing fields.
 */
import {
  SIGNATURE_HEADER,
  SIGNATURE_TICKET_PATH,
  RegistrationActionBodySchema,
  type LdapMatch,
  type Registration,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useSearchParams } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../../testing/mockApi';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { ReviewRegistrationPage } from './ReviewRegistrationPage';

const GET = 'GET /rest/secure/user_registration/5';
const APPROVE = 'PUT /rest/secure/user_registration_action/approve';
const DENY = 'PUT /rest/secure/user_registration_action/deny';
const BY_EMAIL = 'GET /rest/secure/user_management/ldap/usersForEmail/ada%40example.org/';
const BY_NAME = 'GET /rest/secure/user_management/ldap/usersForPersonName/Lovelace/Ada/';

const registration = (patch: Partial<Registration> = {}): Registration => ({
  id: 5,
  versionno: 2,
  firstName: 'Ada',
  lastName: 'Lovelace',
  jobTitle: 'Analyst',
  organizationName: 'North Lead',
  phoneNumber: '555-0100',
  phoneExtension: '12',
  email: 'ada@example.org',
  accessControls: [
    {
      questionNum: 1,
      roleName: 'Investigator',
      siteCodes: [],
      laoIds: ['NLAO'],
      studyNames: ['STUDY-1'],
      systemAccessIds: [1, 2],
    },
  ],
  requesterComments: 'Spring study',
  reviewerComments: '',
  sysaidTicket: '',
  registrationStatus: 'PENDING',
  portalRoleIds: [],
  isProxy: false,
  proxyUserId: null,
  proxyName: null,
  proxyEmail: null,
  proxyPhone: null,
  proxyPhoneExt: null,
  personCompletingThisFormEmail: '',
  personCompletingThisFormFullName: '',
  personCompletingThisFormPhoneNumber: '',
  personCompletingThisFormPhoneExtension: '',
  portalUserId: null,
  sysdat: '2026-01-02T03:04:05Z',
  dchng: '2026-01-02T03:04:05Z',
  lastModifiedBy: 'anonymous',
  workflowId: 'registration-5',
  workflowUrl: null,
  ...patch,
});

const match = (uuid: string, username: string, attached = false): LdapMatch => ({
  uuid,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  gecos: `Ada Lovelace (${username})`,
  username,
  attachedToPortalUserAccount: attached,
});

/** The list page the screen returns to, showing its query message. */
function QueueMarker() {
  const [search] = useSearchParams();
  return <p>Queue: {search.get('message')}</p>;
}

function renderReview(handlers: Record<string, Handler> = {}, permissions = ['USER', 'READ_USERS', 'WRITE_USERS']) {
  const api = mockApi({
    ...referenceHandlers,
    [GET]: () => reply(200, registration()),
    'GET /rest/secure/user_management/portal_roles': () =>
      reply(200, [
        { id: 3, description: 'Network User', permissions: ['USER'], inactive: false, sort: 0 },
        { id: 4, description: 'Retired Role', permissions: ['USER'], inactive: true, sort: 1 },
        { id: 5, description: 'Reviewer', permissions: ['READ_USERS', 'WRITE_USERS'], inactive: false, sort: 2 },
      ]),
    'GET /rest/secure/user_management/account_types': () =>
      reply(200, {
        defaultAccountType: { id: 'external' },
        assignableAccountTypes: [
          { id: 'external', name: 'External' },
          { id: 'internal', name: 'Internal' },
        ],
      }),
    [BY_EMAIL]: () => reply(200, [match('u-1', 'alovelace'), match('u-2', 'ada2', true)]),
    [BY_NAME]: () => reply(200, [match('u-2', 'ada2', true), match('u-3', 'adal')]),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/user-requests/registration/:id',
    url: '/app/user-requests/registration/5',
    element: <ReviewRegistrationPage />,
    permissions: permissions as never,
    otherRoutes: [{ path: '/app/user-requests', element: <QueueMarker /> }],
  });
  const sent = (key: string) => api.callsTo(key).map((c) => RegistrationActionBodySchema.parse(c.body));
  return { ...view, api, sent };
}

const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
const SETTINGS = 'GET /rest/secure/portal_settings';
const signaturesOn = () =>
  reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } });
const ticket = () => reply(200, { ticket: 'ticket-9', expiresAt: '2026-12-03T12:00:00Z' });

describe('Review Pending User, signed', () => {
  it('Create User asks for the signature; the approval is sent with the ticket for its own body', async () => {
    const { user, api } = renderReview({
      [SETTINGS]: signaturesOn,
      [TICKET]: ticket,
      [APPROVE]: () => reply(200, registration({ registrationStatus: 'APPROVED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    await user.click(await screen.findByRole('checkbox', { name: /Network User/ }));
    await waitFor(() => expect(screen.getByTestId('ldap-search')).toHaveTextContent('3 matches'));
    await user.click(screen.getByRole('button', { name: 'Create User' }));

    const dialog = await screen.findByRole('dialog', { name: 'Electronic signature' });
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Approved');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret{Enter}');

    await waitFor(() => expect(api.callsTo(APPROVE)).toHaveLength(1));
    const [approve] = api.callsTo(APPROVE);
    expect(approve!.headers[SIGNATURE_HEADER]).toBe('ticket-9');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'REQUEST_APPROVAL',
      meaning: 'Approved',
      decision: { method: 'PUT', path: '/rest/secure/user_registration_action/approve', body: approve!.body },
    });
    expect(await screen.findByText(/Queue:/)).toBeInTheDocument();
  });

  it("Reject keeps its question and adds the signing fields; the denial is signed 'Rejected'", async () => {
    const { user, api } = renderReview({
      [SETTINGS]: signaturesOn,
      [TICKET]: ticket,
      [DENY]: () => reply(200, registration({ registrationStatus: 'DENIED' })),
    });
    await waitFor(() => expect(api.callsTo(SETTINGS)).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Registration?' });
    expect(dialog).toHaveTextContent('Are you sure you want to reject the registration of Ada Lovelace?');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'rev');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.callsTo(DENY)).toHaveLength(1));
    expect(api.callsTo(DENY)[0]!.headers[SIGNATURE_HEADER]).toBe('ticket-9');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({ action: 'REQUEST_REJECTION', meaning: 'Rejected' });
  });
});
