/**
 * What the review screen's tests of a registration share (Review Pending User, 001 §2.4): the stored
 * registration, its directory matches, and the screen rendered on mocked HTTP with its reference data.
 */
import { RegistrationActionBodySchema, type LdapMatch, type Registration } from '@portal/contract';
import { useSearchParams } from 'react-router-dom';
import { mockApi, reply, type Handler } from '../../../testing/mockApi';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { ReviewRegistrationPage } from './ReviewRegistrationPage';

export const GET = 'GET /rest/secure/user_registration/5';
export const APPROVE = 'PUT /rest/secure/user_registration_action/approve';
export const DENY = 'PUT /rest/secure/user_registration_action/deny';
export const BY_EMAIL = 'GET /rest/secure/user_management/ldap/usersForEmail/ada%40example.org/';
export const BY_NAME = 'GET /rest/secure/user_management/ldap/usersForPersonName/Lovelace/Ada/';

export const registration = (patch: Partial<Registration> = {}): Registration => ({
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

export const match = (uuid: string, username: string, attached = false): LdapMatch => ({
  uuid,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  gecos: `Ada Lovelace (${username})`,
  username,
  attachedToPortalUserAccount: attached,
});

/** The list page the screen returns to, showing its query message. */
export function QueueMarker() {
  const [search] = useSearchParams();
  return <p>Queue: {search.get('message')}</p>;
}

export function renderReview(
  handlers: Record<string, Handler> = {},
  permissions = ['USER', 'READ_USERS', 'WRITE_USERS'],
) {
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
