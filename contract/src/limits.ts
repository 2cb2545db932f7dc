/** Field length limits in characters (000 §5 Maximum lengths, 001 §5 Field limits). */
export const FIELD_LIMITS = {
  firstName: 45,
  lastName: 45,
  email: 256,
  username: 64,
  gecos: 91,
  organizationName: 64,
  jobTitle: 45,
  phoneNumber: 15,
  phoneExtension: 5,
  address: 255,
  city: 255,
  postalCode: 20,
  requesterComments: 512,
  proxyRequesterComments: 250,
  reviewerComments: 512,
  sysaidTicket: 16,
  portalRoleName: 64,
  studyRoleName: 128,
  studyRoleDescription: 1024,
  systemName: 128,
  systemDescription: 1024,
} as const;

/** 000 §9 constants used by both the API and the browser. */
export const CONSTANTS = {
  defaultTokenTimeoutSeconds: 3600,
  inactivityWarningSeconds: 300,
  tokenRefreshAttempts: 2,
  lockoutWarningThreshold: 3,
  tablePageSizes: [10, 15, 25, 50, 100, 150, 200],
  usersDefaultPageSize: 25,
  redirectAfterSaveMs: 750,
  tableFilterDebounceMs: 500,
  /** The fixed system every role block carries (000 §2 Shared widgets, 001 §5). */
  fixedSystemName: 'Portal Gateway',
  xsrfHeader: 'x-xsrf-token',
  projectHeader: 'x-project-name',
  sessionCookie: 'pg_session',
} as const;
