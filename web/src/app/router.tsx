import type { Permission } from '@portal/contract';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { SecurePage } from '../auth/SecurePage';
import { SignInPage } from '../auth/SignInPage';
import { PublicLayout } from '../layout/PublicLayout';
import { paths } from '../lib/paths';
import { PageLoader } from '../shared/PageLoader';
import { StatusPage } from '../shared/StatusPage';

/**
 * The routes of 000 §2 and 001 §2 built so far, composed from the features. The sign-in page and the public
 * layout load with the app; the secure layout is its own chunk; every other screen is its own chunk, loaded when first opened, so '/' does not
 * download the configuration editors or the audit trail.
 */

/** A screen loaded on first use: `load` imports its module, `name` picks the export. */
function screen<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const SecureShell = screen(() => import('./SecureShell'), 'SecureShell');
const SignOutPage = screen(() => import('../auth/SignOutPage'), 'SignOutPage');
const ForgotPasswordPage = screen(() => import('../password/ForgotPasswordPage'), 'ForgotPasswordPage');
const SecondStepPage = screen(() => import('../auth/SecondStepPage'), 'SecondStepPage');
const EnrolSignInMethodPage = screen(
  () => import('../profile/security/EnrolSignInMethodPage'),
  'EnrolSignInMethodPage',
);
const ConfirmSignInMethodPage = screen(
  () => import('../profile/security/ConfirmSignInMethodPage'),
  'ConfirmSignInMethodPage',
);
const ChangePasswordPage = screen(() => import('../password/ChangePasswordPage'), 'ChangePasswordPage');
const SetPasswordPage = lazy(async () => ({ default: (await import('../password/SetPasswordPage')).SetPasswordPage }));
const AppChangePasswordPage = screen(() => import('../password/AppChangePasswordPage'), 'AppChangePasswordPage');
const DashboardPage = screen(() => import('../dashboard/DashboardPage'), 'DashboardPage');
const ProfilePage = screen(() => import('./ProfileScreen'), 'ProfileScreen');
const RequestAccessPage = screen(
  () => import('../requests/access-change/filing/RequestAccessPage'),
  'RequestAccessPage',
);
const ReportsPage = screen(() => import('../reports/ReportsPage'), 'ReportsPage');
const UserRequestsPage = screen(() => import('../user-requests/UserRequestsPage'), 'UserRequestsPage');
const UsersListPage = screen(() => import('../users/UsersListPage'), 'UsersListPage');
const PublicRegistrationPage = screen(
  () => import('../requests/registration/filing/PublicRegistrationPage'),
  'PublicRegistrationPage',
);
const ProxyRegistrationPage = screen(
  () => import('../requests/registration/filing/ProxyRegistrationPage'),
  'ProxyRegistrationPage',
);
const ProxyAccessChangePage = screen(
  () => import('../requests/proxy-batch/filing/ProxyAccessChangePage'),
  'ProxyAccessChangePage',
);
const ReviewRegistrationPage = screen(
  () => import('../requests/registration/review/ReviewRegistrationPage'),
  'ReviewRegistrationPage',
);
const ReviewAccessChangePage = screen(
  () => import('../requests/access-change/review/ReviewAccessChangePage'),
  'ReviewAccessChangePage',
);
const ReviewProfileChangePage = screen(
  () => import('../requests/profile-change/review/ReviewProfileChangePage'),
  'ReviewProfileChangePage',
);
const ConfigurePage = screen(() => import('../configure/ConfigurePage'), 'ConfigurePage');
const PortalRolePage = screen(() => import('../configure/PortalRolePage'), 'PortalRolePage');
const StudyRolePage = screen(() => import('../configure/StudyRolePage'), 'StudyRolePage');
const SystemPage = screen(() => import('../configure/SystemPage'), 'SystemPage');
const ResourceCategoryPage = screen(() => import('../configure/dashboard/CategoryPage'), 'CategoryPage');
const DashboardItemPage = screen(() => import('../configure/dashboard/ItemPage'), 'ItemPage');
const ApprovalPolicyPage = screen(
  () => import('../configure/approval-policies/ApprovalPolicyPage'),
  'ApprovalPolicyPage',
);
const AwaitingApprovalPage = screen(() => import('../requests/approvals/AwaitingApprovalPage'), 'AwaitingApprovalPage');
const StageDecisionPage = screen(() => import('../requests/approvals/StageDecisionPage'), 'StageDecisionPage');
const AuditTrailPage = screen(() => import('../audit-trail/AuditTrailPage'), 'AuditTrailPage');
const AuditIntegrityPage = screen(() => import('../audit-trail/integrity/AuditIntegrityPage'), 'AuditIntegrityPage');
const UserDetailPage = screen(() => import('../users/UserDetailPage'), 'UserDetailPage');
const AccessReviewsPage = screen(() => import('../access-reviews/AccessReviewsPage'), 'AccessReviewsPage');
const CampaignsPage = screen(() => import('../access-reviews/admin/CampaignsPage'), 'CampaignsPage');
const NewCampaignPage = screen(() => import('../access-reviews/admin/NewCampaignPage'), 'NewCampaignPage');
const CampaignPage = screen(() => import('../access-reviews/admin/CampaignPage'), 'CampaignPage');
const SsoStepPage = screen(() => import('../sso/SsoStepPage'), 'SsoStepPage');
const SsoRefusedPage = screen(() => import('../sso/SsoRefusedPage'), 'SsoRefusedPage');

/** An address that matches no route (000 §2 Routes): a heading, the fact, and the way home. */
function NotFound({ home }: { home: string }) {
  return (
    <StatusPage
      title="Page Not Found"
      text="There is no page at this address. It may have moved, or the link may be mistyped."
      onward={{ label: home === paths.signIn.href ? 'Go to the sign-in page' : 'Go to the dashboard', to: home }}
    />
  );
}

/** A lazily loaded screen with the loader shown while its chunk arrives. */
function page(Screen: ComponentType) {
  return (
    <Suspense fallback={<PageLoader />}>
      <Screen />
    </Suspense>
  );
}

/** A secure screen (000 §4 Secure page): the permission check first, then the screen. */
function secure(path: string, Screen: ComponentType, permission?: Permission): RouteObject {
  return { path, element: <SecurePage permission={permission}>{page(Screen)}</SecurePage> };
}

const { app } = paths;

export const router = createBrowserRouter([
  {
    path: paths.signIn.path,
    element: <PublicLayout />,
    children: [
      { index: true, element: <SignInPage /> },
      { path: paths.publicHome.path, element: <Navigate to={paths.signIn.href} replace /> },
      { path: paths.forgotPassword.path, element: page(ForgotPasswordPage) },
      { path: paths.register.path, element: page(PublicRegistrationPage) },
      { path: paths.changePassword.path, element: page(ChangePasswordPage) },
      { path: paths.secondStep.path, element: page(SecondStepPage) },
      // 000 §2 'set / reset password: route shape not shown' (docs/decisions.md); a missing hash is invalid.
      { path: paths.setInitialPassword.path, element: page(() => <SetPasswordPage mode="set_initial_password" />) },
      { path: paths.resetPassword.path, element: page(() => <SetPasswordPage mode="reset_password" />) },
      { path: '*', element: <NotFound home={paths.signIn.href} /> },
    ],
  },
  { path: app.signOut.path, element: page(SignOutPage) },
  // Single sign-on (issue 22): the sign-in step and the refusals, in the public frame. The step must not show
  // the secure shell before it knows there is a session; a refusal may come before any sign-in.
  {
    element: <PublicLayout />,
    children: [
      { path: app.sso.refused.path, element: page(SsoRefusedPage) },
      { path: app.sso.step.path, element: page(SsoStepPage) },
      // Issue 37: a session limited to enrolment cannot open the secure shell; the link may come signed out.
      { path: app.signInMethod.enrol.path, element: page(EnrolSignInMethodPage) },
      { path: app.signInMethod.confirm.path, element: page(ConfirmSignInMethodPage) },
    ],
  },
  {
    path: app.root.path,
    element: page(SecureShell),
    children: [
      { index: true, element: <Navigate to={app.dashboard.href} replace /> },
      secure(app.dashboard.path, DashboardPage),
      secure(app.profile.path, ProfilePage),
      secure(app.requestAccess.path, RequestAccessPage),
      { path: app.requestAccessChange.path, element: <Navigate to={app.profile.href('access')} replace /> },
      secure(app.changePassword.path, AppChangePasswordPage),
      secure(app.proxyRegistration.path, ProxyRegistrationPage),
      secure(app.proxyAccessChange.path, ProxyAccessChangePage),
      // 001 §2.11, §6: every signed-in user may open it; the download answers 403 without READ_USERS.
      secure(app.reports.path, ReportsPage),
      secure(app.users.path, UsersListPage, 'READ_USERS'),
      secure(app.userRequests.path, UserRequestsPage, 'READ_USERS'),
      secure(app.accessChangeReview.path, ReviewAccessChangePage, 'READ_USERS'),
      secure(app.registrationReview.path, ReviewRegistrationPage, 'READ_USERS'),
      secure(app.profileChangeReview.path, ReviewProfileChangePage, 'READ_USERS'),
      // 001 §2.12 Configuration: READ_USERS views; creating needs ADMIN, as do the editors' changes.
      secure(app.configure.path, ConfigurePage, 'READ_USERS'),
      ...(
        [
          [app.configure.portalRole, PortalRolePage],
          [app.configure.studyRole, StudyRolePage],
          [app.configure.system, SystemPage],
        ] as const
      ).flatMap(([route, Screen]) => [
        secure(route.href('new'), Screen, 'ADMIN'),
        secure(route.path, Screen, 'READ_USERS'),
      ]),
      // The dashboard's resources (issue 23): ADMIN only, viewing included.
      secure(app.configure.resourceCategory.path, ResourceCategoryPage, 'ADMIN'),
      secure(app.configure.dashboardItem.path, DashboardItemPage, 'ADMIN'),
      // Approval policies: ADMIN only. 'Awaiting my approval': every signed-in user (LAO staff hold no reviewer
      // permission); the API answers only the stages the user may decide.
      secure(app.configure.approvalPolicy.path, ApprovalPolicyPage, 'ADMIN'),
      secure(app.approvals.path, AwaitingApprovalPage),
      secure(app.approvals.one.path, StageDecisionPage),
      // Issue 25: any signed-in user may open Access Reviews (it says when there is nothing to review); the
      // campaigns are ADMIN's.
      secure(app.accessReviews.path, AccessReviewsPage),
      secure(app.accessReviewCampaigns.path, CampaignsPage, 'ADMIN'),
      secure(app.accessReviewCampaigns.create.path, NewCampaignPage, 'ADMIN'),
      secure(app.accessReviewCampaigns.one.path, CampaignPage, 'ADMIN'),
      secure(app.auditTrail.path, AuditTrailPage, 'READ_USERS'),
      secure(app.auditTrail.integrity.path, AuditIntegrityPage, 'ADMIN'),
      secure(app.userDetail.path, UserDetailPage, 'READ_USERS'),
      { path: '*', element: <NotFound home={app.dashboard.href} /> },
    ],
  },
]);
