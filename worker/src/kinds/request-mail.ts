/**
 * The resolution mail of a request filed about a portal user (access change, profile change; REQUEST-LIFECYCLE
 * rule 5): the greeting, what the kind says of the outcome, the reviewer's comments when there are any, where
 * the user sees their requests, and the support signature. The registration's mail (no portal user yet) is
 * its own, `registration/mail.ts`.
 */
import { REQUEST_STATUS_LABELS, type RequestStatus } from '@portal/contract';
import type { MailContent } from './types';

/** The resolved request the mail is about. */
export interface ResolvedRequest {
  id: number;
  requestStatus: RequestStatus;
  reviewerComments: string;
}

/** The request's status as the mail words it, e.g. 'approved'. */
export const resolvedAs = (request: Pick<ResolvedRequest, 'requestStatus'>) =>
  REQUEST_STATUS_LABELS[request.requestStatus].toLowerCase();

/**
 * The mail to `user` about `request`, a `noun` request ('access', 'profile-change'): `outcome` are the lines
 * after the greeting, before the reviewer's comments.
 */
export function userResolutionMail(
  user: { firstName: string; lastName: string; email: string },
  request: ResolvedRequest,
  noun: string,
  outcome: string[],
  portalUrl: string,
): MailContent {
  const text = [
    `Dear ${user.firstName} ${user.lastName},`,
    '',
    ...outcome,
    ...(request.reviewerComments ? [`Reviewer comments: ${request.reviewerComments}`] : []),
    '',
    `You can see your requests under Profile, Requests History: ${portalUrl}/app/profile?tab=history&redirect=true`,
    '',
    'Portal Gateway User Support',
  ].join('\n');
  return {
    to: user.email,
    subject: `Portal Gateway: your ${noun} request #${request.id} was ${resolvedAs(request)}`,
    text,
  };
}
