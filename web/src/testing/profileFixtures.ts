import type { Profile, ProfileChangeRequest } from '@portal/contract';

/**
 * Account fixtures for component tests (000 §2 Profile; 001 §2.10): the signed-in user's profile as
 * GET /rest/secure/user_profile answers it and a name and email change request as the history and the Account
 * tab list them, plus the blank contact fields other account fixtures share and the LAO staff proxy requester.
 * Every optional field is blank, so a test patches only what it reads.
 */

/** The contact fields an account fixture leaves blank (000 §2 Details); spread first, then patch. */
export const blankContact = {
  organizationName: '',
  jobTitle: '',
  phoneNumber: '',
  phoneExtension: '',
  address1: '',
  address2: '',
  city: '',
  postalCode: '',
};

/** The LAO staff member who files proxy requests (001 §2.2, §2.7), as a profile patch. */
export const laoStaff: Partial<Profile> = {
  portalUserId: 40,
  uuid: 'uuid-40',
  username: 'laostaff',
  firstName: 'Lea',
  lastName: 'Staff',
  email: 'lea@portal.test',
};

/** A complete external profile (Ada Lovelace, user 7, no access, no proxy right) with `patch` applied. */
export const profileFixture = (patch: Partial<Profile> = {}): Profile => ({
  portalUserId: 7,
  uuid: null,
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  ...blankContact,
  country: null,
  state: null,
  accountType: 'external',
  roles: [],
  userAccesses: [],
  canSubmitProxyAccessChangeRequests: { canSubmit: false, forAllUsers: false },
  ...patch,
});

/**
 * A NEW name and email change request of user 7 (Casey Lapsed, nothing changed yet, no next statuses) with
 * `patch` applied; the workflow id follows the request id.
 */
export const profileChangeRequestFixture = (patch: Partial<ProfileChangeRequest> = {}): ProfileChangeRequest => ({
  id: 3,
  portalUserId: 7,
  firstName: 'Casey',
  lastName: 'Lapsed',
  email: 'casey@portal.test',
  originalFirstName: 'Casey',
  originalLastName: 'Lapsed',
  originalEmail: 'casey@portal.test',
  username: 'casey',
  requestStatus: 'NEW',
  requesterComments: '',
  reviewerComments: '',
  sysdat: '2026-01-01T10:00:00.000Z',
  dchng: '2026-01-01T10:00:00.000Z',
  sysaidTicket: '',
  lastModifiedBy: 'casey',
  inactive: false,
  versionno: 0,
  allowedNextStatuses: [],
  workflowId: `profile-change-${patch.id ?? 3}`,
  workflowUrl: null,
  ...patch,
});
