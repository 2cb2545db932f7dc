import type { AuditEntityType, SsoRefusalCase } from '@portal/contract';

/**
 * Every route of the browser app and every link to one (000 §2 Routes, 001 §2), in one place: `path` is the
 * router's pattern, the functions build hrefs. Features and the router import this module; no component
 * spells an address itself, so a route moves by changing one line here.
 */

type Id = number | 'new';

/** The Configure tabs (001 §2.12; the dashboard's resources, issue 23), kept in the URL. */
export type ConfigureTab =
  'portalRoles' | 'studyRoles' | 'systems' | 'resourceCategories' | 'dashboardItems' | 'approvalPolicies';

/** Search params of Request New / Modified Access (001 §2.5). */
export type RequestAccessParams =
  | { type: 'NEW'; userId: number; roleNamesInUse: readonly string[] }
  | { type: 'UPDATE'; userId: number; existingUserAccessId: number };

/** What the single sign-on refusal page shows (issue 22): the case, the system asked for, the open request for it. */
export interface SsoRefusalParams {
  case: SsoRefusalCase;
  system?: { id: number; systemName: string } | null;
  openRequestId?: number | null;
}

/** Query strings with spaces written as %20 (the spec's examples), not '+'. */
const query = (params: URLSearchParams) => params.toString().replace(/\+/g, '%20');

export const paths = {
  signIn: { path: '/', href: '/' },
  forgotPassword: { path: '/forgot-password', href: '/forgot-password' },
  /** The public registration form (000 §2 Routes, 001 §2.1). */
  register: { path: '/register', href: '/register' },
  publicHome: { path: '/public', href: '/public/' },
  /** Standalone Change Password (000 §4 Password expiry): `params` carries username, skipRefresh and redirects. */
  changePassword: {
    path: '/change-password',
    href: (params?: URLSearchParams) => {
      const qs = params?.toString();
      return qs ? `/change-password?${qs}` : '/change-password';
    },
  },
  /**
   * The sign-in's second step (issue 37), also the step-up a study system's multi-factor demand asks for: the
   * page goes on to `next` (a path inside the app) once the code is taken.
   */
  secondStep: {
    path: '/second-step',
    /**
     * `methods`: the sign-in's answer (a passkey first); `level` 'phr': a study system asks for the
     * phishing-resistant level, which only a passkey reaches.
     */
    href: (next: string, opts: { methods?: readonly string[]; level?: 'phr' } = {}) => {
      const params = new URLSearchParams({ next });
      if (opts.methods?.length) params.set('methods', opts.methods.join(','));
      if (opts.level) params.set('level', opts.level);
      return `/second-step?${params.toString()}`;
    },
  },
  setInitialPassword: { path: '/set-initial-password/:hash?' },
  resetPassword: { path: '/reset-password/:hash?' },
  app: {
    root: { path: '/app', href: '/app' },
    /**
     * Issue 37, in the public frame (the session may be limited to them): enrolling a first authenticator app
     * when the person's roles require one, and the page the emailed link opens.
     */
    signInMethod: {
      enrol: { path: '/app/sign-in-method', href: '/app/sign-in-method' },
      confirm: {
        path: '/app/confirm-sign-in-method/:token',
        href: (token: string) => `/app/confirm-sign-in-method/${token}`,
      },
    },
    signOut: { path: '/app/signout', href: '/app/signout' },
    /**
     * The dashboard (000 §2). `afterSignIn`: with skipRefresh (the session is brand new: no token refresh on
     * arrival) and, when `keepAlert`, keepAlert (the notification that led here stays shown). Kept to string
     * concatenation: the sign-in page carries this module (issue 14 budget).
     */
    dashboard: {
      path: '/app/dashboard',
      href: '/app/dashboard',
      afterSignIn: (keepAlert: boolean) => `/app/dashboard?skipRefresh=true${keepAlert ? '&keepAlert=true' : ''}`,
    },
    profile: {
      path: '/app/profile',
      href: (tab?: 'account' | 'details' | 'access' | 'history' | 'security') =>
        tab ? `/app/profile?tab=${tab}` : '/app/profile',
    },
    requestAccess: {
      path: '/app/profile/request-new-or-modified-access',
      href: (p: RequestAccessParams) => {
        const params = new URLSearchParams({ accessRequestType: p.type, userId: String(p.userId) });
        if (p.type === 'UPDATE') params.set('existingUserAccessId', String(p.existingUserAccessId));
        else if (p.roleNamesInUse.length) params.set('initStudyRoleNamesInUse', p.roleNamesInUse.join(','));
        return `/app/profile/request-new-or-modified-access?${params.toString()}`;
      },
      /** Request New Access with `systemId` preselected in the role block (issue 22: the 'not authorized' page). */
      forSystem: (systemId: number) =>
        `/app/profile/request-new-or-modified-access?accessRequestType=NEW&systemId=${systemId}`,
    },
    /** The old address of the request form, kept as a redirect to the Access tab. */
    requestAccessChange: { path: '/app/request-access-change' },
    changePassword: { path: '/app/change-password', href: '/app/change-password' },
    /** Reports (000 §2 Routes, 001 §2.11): the access-modification report download. */
    reports: { path: '/app/reports', href: '/app/reports' },
    /** 'Request a User' (000 §2 Routes, 001 §2.2). */
    proxyRegistration: { path: '/app/proxy-registration', href: '/app/proxy-registration' },
    /** 'Request Access-Change for Other Users' (000 §2 Routes, 001 §2.7); `batch` follows a submitted batch. */
    proxyAccessChange: {
      path: '/app/proxy-access-change-request',
      href: (batchId?: number) =>
        batchId ? `/app/proxy-access-change-request?batch=${batchId}` : '/app/proxy-access-change-request',
    },
    userRequests: {
      path: '/app/user-requests',
      href: '/app/user-requests',
      /** The list with a message to show (001 §2.3: 'User created', 'User Rejected', ...). */
      withMessage: (message: string) => `/app/user-requests?${query(new URLSearchParams({ message }))}`,
    },
    /** Review Pending User (001 §2.4: 'the route shape is not shown'). */
    registrationReview: {
      path: '/app/user-requests/registration/:id',
      href: (id: number) => `/app/user-requests/registration/${id}`,
    },
    accessChangeReview: {
      path: '/app/user-requests/access-change/:id',
      href: (id: number) => `/app/user-requests/access-change/${id}`,
    },
    /** The profile-change review (001 §2.10: 'The route shape of the review screen is not shown'). */
    profileChangeReview: {
      path: '/app/user-requests/profile-change/:id',
      href: (id: number) => `/app/user-requests/profile-change/${id}`,
      /** 'View/Edit User' (001 §2.10): the user detail with returnPage and returnUrl leading back to the review. */
      viewUser: (userId: number, requestId: number) =>
        `/app/users/${userId}?${query(new URLSearchParams({ returnPage: 'Profile-Change Request', returnUrl: `/app/user-requests/profile-change/${requestId}` }))}`,
    },
    /** The Users list (000 §2); `detail` opens a user with Back returning to `returnUrl` (the list's own view). */
    users: {
      path: '/app/users',
      href: '/app/users',
      detail: (id: number, returnUrl: string) => `/app/users/${id}?${query(new URLSearchParams({ returnUrl }))}`,
    },
    /** User detail (000 §2); Back goes to `returnUrl`, by default the Users list. */
    userDetail: { path: '/app/users/:id', href: (id: number) => `/app/users/${id}` },
    /** A user's request history (users administration, not built yet), returning to the User Requests queue. */
    userHistory: {
      href: (userId: number) =>
        `/app/users/${userId}?${query(new URLSearchParams({ tab: 'history', returnPage: 'User Requests', returnUrl: '/app/user-requests' }))}`,
    },
    configure: {
      path: '/app/configure',
      href: (tab: ConfigureTab) => `/app/configure/?tab=${tab}`,
      portalRole: { path: '/app/configure/roles/:id', href: (id: Id) => `/app/configure/roles/${id}` },
      studyRole: { path: '/app/configure/study-roles/:id', href: (id: Id) => `/app/configure/study-roles/${id}` },
      system: { path: '/app/configure/systems/:id', href: (id: Id) => `/app/configure/systems/${id}` },
      /** The dashboard's resource categories and items (issue 23). */
      resourceCategory: {
        path: '/app/configure/resource-categories/:id',
        href: (id: Id) => `/app/configure/resource-categories/${id}`,
      },
      dashboardItem: {
        path: '/app/configure/dashboard-items/:id',
        href: (id: Id) => `/app/configure/dashboard-items/${id}`,
      },
      /** Approval policies (ADMIN): one policy, or a new one. */
      approvalPolicy: {
        path: '/app/configure/approval-policies/:id',
        href: (id: Id) => `/app/configure/approval-policies/${id}`,
      },
    },
    /** 'Awaiting my approval' (approval policies): the stages the signed-in user may decide, and one request's. */
    approvals: {
      path: '/app/approvals',
      href: '/app/approvals',
      one: { path: '/app/approvals/:id', href: (id: number) => `/app/approvals/${id}` },
    },
    /** Single sign-on (issue 22): the portal's same-site sign-in step of a provider interaction, and refusals. */
    sso: {
      step: { path: '/app/sso/:uid', href: (uid: string) => `/app/sso/${encodeURIComponent(uid)}` },
      refused: {
        path: '/app/sso/refused',
        href: (r: SsoRefusalParams) => {
          const params = new URLSearchParams({ case: r.case });
          if (r.system) {
            params.set('systemId', String(r.system.id));
            params.set('systemName', r.system.systemName);
          }
          if (r.openRequestId) params.set('openRequestId', String(r.openRequestId));
          return `/app/sso/refused?${query(params)}`;
        },
      },
    },
    /** Access Reviews (issue 25): the reviewer's items; `campaignId` picks a campaign (the invitation mail links it). */
    accessReviews: {
      path: '/app/access-reviews',
      href: (campaignId?: number) =>
        campaignId ? `/app/access-reviews?campaignId=${campaignId}` : '/app/access-reviews',
    },
    /** Access review campaigns (issue 25, ADMIN): the list (`recurring` tab), a new campaign, one campaign. */
    accessReviewCampaigns: {
      path: '/app/access-review-campaigns',
      href: (tab?: 'recurring') => (tab ? `/app/access-review-campaigns?tab=${tab}` : '/app/access-review-campaigns'),
      create: { path: '/app/access-review-campaigns/new', href: '/app/access-review-campaigns/new' },
      one: { path: '/app/access-review-campaigns/:id', href: (id: number) => `/app/access-review-campaigns/${id}` },
    },
    auditTrail: {
      path: '/app/audit-trail',
      /** The audit trail, or one record's history in it. */
      href: (record?: { entityType: AuditEntityType; entityId: number | string }) =>
        record
          ? `/app/audit-trail?${new URLSearchParams({ entityType: record.entityType, entityId: String(record.entityId) }).toString()}`
          : '/app/audit-trail',
      /** Audit Integrity (ADMIN): the last verification of the sealed trail and 'Verify now'. */
      integrity: { path: '/app/audit-trail/integrity', href: '/app/audit-trail/integrity' },
    },
  },
} as const;
