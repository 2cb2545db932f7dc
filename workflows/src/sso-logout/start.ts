/** The typed start of `sso-logout-<noticeId>` (rule 1 as every job: the row first, then this start). Client-side. */
import { RequestTypeKey } from '../search-attributes';
import type { WorkflowStart } from '../start';
import type { ssoLogoutWorkflow } from './workflow';
import { SSO_LOGOUT_WORKFLOW_TYPE, ssoLogoutWorkflowId } from './types';

export function ssoLogoutStart(
  noticeId: number,
  clientId: string,
  deadline?: string,
): WorkflowStart<typeof ssoLogoutWorkflow> {
  return {
    workflowType: SSO_LOGOUT_WORKFLOW_TYPE,
    workflowId: ssoLogoutWorkflowId(noticeId),
    args: [{ noticeId, deadline }],
    searchAttributes: [{ key: RequestTypeKey, value: 'SSO_LOGOUT' }],
    summary: `Back-channel logout #${noticeId} to ${clientId}`,
    details: `**Back-channel logout #${noticeId}**\n\n- Sends one signed logout token to the system \`${clientId}\`, retried until it answers.`,
  };
}
