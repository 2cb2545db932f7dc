/**
 * Back-channel logout (issue 22; OpenID Connect Back-Channel Logout 1.0): `sso-logout-<noticeId>` sends one
 * signed logout token to one system for one person whose grant was revoked. Started by the worker's reconciler
 * from the `SsoLogoutNotice` row the revocation wrote; its activity retries until the system answers 2xx or
 * the deadline passes. Pure types and constants.
 */
export const SSO_LOGOUT_WORKFLOW_TYPE = 'ssoLogoutWorkflow';
export const ssoLogoutWorkflowId = (noticeId: number): string => `sso-logout-${noticeId}`;

export interface SsoLogoutInput {
  noticeId: number;
  /** How long the sends are retried (Temporal duration; default '24 hours'). Tests shorten it. */
  deadline?: string;
}

export interface SsoLogoutActivities {
  /**
   * Signs and POSTs the logout token of notice `noticeId` to its client's back-channel logout URI, then marks
   * it sent. @returns 'SENT', or 'SKIPPED' (already sent, no URI any more, or a target refused by policy).
   * @throws when the system does not answer 2xx (retried).
   */
  sendLogoutNotice(input: { noticeId: number }): Promise<'SENT' | 'SKIPPED'>;
}
