/**
 * A registration's resolution mail (REQUEST-LIFECYCLE rule 5): approval mails the set-initial-password link,
 * minted only when the outbox claimed the send (`render`), in one transaction with the registration's
 * `passwordLinkId`. Its hash is the outbox row's secret, so a later attempt (after an SMTP failure, or a
 * sender lost after its send) finds the link the first attempt minted and mails it again instead of revoking
 * it (issue 21 case 6). Denial mails a notice; deletion mails nothing.
 */
import type { PrismaClient } from '@portal/db';
import { INITIAL_LINK_TTL_SECONDS, ensurePasswordLink, passwordLinkUrl } from '@portal/db';
import type { MailContent } from '../types';
import { invalid } from './payload';

export const REGISTRATION_MAIL_SUBJECTS = {
  approved: 'Portal Gateway: your account was created',
  denied: 'Portal Gateway: your registration was not approved',
} as const;

export async function registrationMail(
  prisma: PrismaClient,
  registrationId: number,
  portalUrl: string,
): Promise<MailContent | null> {
  const reg = await prisma.registration.findUniqueOrThrow({ where: { id: registrationId } });
  const greeting = `Dear ${reg.firstName} ${reg.lastName},`;
  const signature = ['', 'Portal Gateway User Support'];
  if (reg.registrationStatus === 'DENIED') {
    return {
      to: reg.email,
      subject: REGISTRATION_MAIL_SUBJECTS.denied,
      text: [
        greeting,
        '',
        `Your registration #${reg.id} for a Portal Gateway account was reviewed and not approved.`,
        ...(reg.reviewerComments ? [`Reviewer comments: ${reg.reviewerComments}`] : []),
        ...signature,
      ].join('\n'),
    };
  }
  if (reg.registrationStatus !== 'APPROVED') return null;
  const userId = reg.portalUserId;
  if (userId === null) throw invalid(`registration ${reg.id} is approved without a portal user`);
  const body = (link: string, expiresAt: Date) =>
    [
      greeting,
      '',
      'Your registration was approved and a Portal Gateway account was created for you.',
      `Your username is ${reg.username}. Set your password with this link:`,
      link,
      '',
      `The link works once and expires on ${expiresAt.toUTCString()}.`,
      ...signature,
    ].join('\n');
  return {
    to: reg.email,
    subject: REGISTRATION_MAIL_SUBJECTS.approved,
    text: body('(link minted when sent)', new Date()),
    render: async (secret) => {
      const spec = { portalUserId: userId, purpose: 'SET_INITIAL', ttlSeconds: INITIAL_LINK_TTL_SECONDS } as const;
      const link = await prisma.$transaction(async (tx) => {
        const minted = await ensurePasswordLink(tx, { ...spec, hash: secret(spec.purpose) });
        await tx.registration.update({ where: { id: reg.id }, data: { passwordLinkId: minted.id } });
        return minted;
      });
      return body(passwordLinkUrl(portalUrl, 'SET_INITIAL', link.hash), link.expiresAt);
    },
  };
}
