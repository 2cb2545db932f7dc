/** `sso-logout-<noticeId>`: one back-channel logout token, retried with backoff until sent or the deadline. */
import { proxyActivities } from '@temporalio/workflow';
import type { SsoLogoutActivities, SsoLogoutInput } from './types';

export async function ssoLogoutWorkflow(input: SsoLogoutInput): Promise<'SENT' | 'SKIPPED'> {
  const { sendLogoutNotice } = proxyActivities<SsoLogoutActivities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: input.deadline ?? '24 hours',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  });
  return sendLogoutNotice({ noticeId: input.noticeId });
}
