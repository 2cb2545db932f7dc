/**
 * What the tests of the shared review screens share, through the access change review (001 §2.8): the stored request, the requested user, and the screen rendered on mocked HTTP.
 */
import { ReviewAccessChangeBodySchema, type AccessModRequest, type ReviewAccessChangeBody } from '@portal/contract';
import { mockApi, reply, type Handler } from '../../../testing/mockApi';
import { blankContact } from '../../../testing/profileFixtures';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { ReviewAccessChangePage } from '../../access-change/review/ReviewAccessChangePage';

export const GET = 'GET /rest/secure/user_access_mod_request/7';
export const SAVE = 'PUT /rest/secure/user_management/review_access_change_request';
export const SYSTEMS = 'GET /rest/public/user_registration/system_accesses/';

export const request = (patch: Partial<AccessModRequest> = {}): AccessModRequest => ({
  id: 7,
  workflowId: 'access-change-7',
  requestType: 'NEW',
  requestStatus: 'NEW',
  requesterComments: 'Please',
  reviewerComments: '',
  sysaidTicket: '',
  inactive: false,
  sysdat: '2026-01-02T03:04:05Z',
  dchng: '2026-01-02T03:04:05Z',
  lastModifiedBy: 'user',
  subjectUserId: 12,
  proxyUserId: null,
  portalUserId: 12,
  firstName: 'Uma',
  lastName: 'Ser',
  email: 'uma@portal.test',
  isProxyRequest: false,
  proxyName: null,
  accessControls: [
    { roleName: 'Investigator', siteCodes: [], laoIds: ['LAO1'], studyNames: ['S-1'], systemAccessIds: [1] },
  ],
  versionno: 3,
  allowedNextStatuses: ['IN_PROGRESS', 'APPROVED', 'REJECTED'],
  workflowUrl: null,
  ...patch,
});

export const REVIEWER = ['USER', 'READ_USERS', 'WRITE_USERS'] as const;

/** The requested user, holding no access yet and one portal role. */
export const subjectFixture = {
  id: 12,
  uuid: null,
  firstName: 'Uma',
  lastName: 'Ser',
  email: 'uma@portal.test',
  username: 'uma',
  gecos: '',
  accountType: 'external',
  uidNumber: null,
  ...blankContact,
  state: null,
  country: null,
  inactive: false,
  portalRoleIds: [],
  siteCodes: [],
  laoIds: [],
  sites: [],
  userAccesses: [],
};

export function renderReview(handlers: Record<string, Handler>, permissions = [...REVIEWER]) {
  const api = mockApi({
    ...referenceHandlers,
    [GET]: () => reply(200, request()),
    [SYSTEMS]: () => reply(200, [{ id: 1, systemName: 'Portal Gateway', description: '', inactive: false, sort: 0 }]),
    // The requested user's roles and access, the portal roles and the relations (001 §2.8 Apply Above Changes).
    'GET /rest/secure/user_management/user/12': () => reply(200, subjectFixture),
    'GET /rest/secure/user_management/portal_roles': () => reply(200, []),
    'GET /rest/public/site_relation': () => reply(200, []),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/user-requests/access-change/:id',
    url: '/app/user-requests/access-change/7',
    element: <ReviewAccessChangePage />,
    permissions,
    otherRoutes: [{ path: '/app/user-requests', element: <p>User requests queue</p> }],
  });
  /** The bodies the screen sent, parsed with the contract's schema. */
  const sent = () => api.callsTo(SAVE).map((c) => ReviewAccessChangeBodySchema.parse(c.body) as ReviewAccessChangeBody);
  return { ...view, api, sent };
}
