/**
 * Issue 21 case 6: a registration's approval mail that the outbox sends twice (the sender lost after the
 * send, its claim taken over once the lease passed) carries the same set-password link both times, and the
 * link of the first mail still sets the password (REQUEST-LIFECYCLE rule 5; docs/decisions.md "Set-password
 * links re-rendered by the outbox").
 */
import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import type { PrismaClient } from '@portal/db';
import { type CaughtMail, readMail } from '@portal/scripts';
import { type PortalActivities, createActivities } from '@portal/worker';
import { freshPassword } from '../auth-helpers';
import { stackEnv, testMailSettings } from '../fixtures';
import { caller, signIn } from '../harness';
import { until } from '../lifecycle/support';
import { useWorkflowApis, withWorker } from '../workflow-apis';
import { registrationBody } from './support';

const { apis, finalState } = useWorkflowApis('registrations-link');

/** `prisma` whose SENT mark of an outbound mail fails: the database lost right after the send. */
function markFails(prisma: PrismaClient): PrismaClient {
  return prisma.$extends({
    query: {
      outboundMail: {
        async updateMany({ args, query }) {
          if (args.data?.status === 'SENT') throw new Error('injected: the database was lost after the send');
          return query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
}

const APPROVED_SUBJECT = 'your account was created';
const linkOf = (mail: CaughtMail): string => /\/set-initial-password\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1]!;

describe('a re-sent approval mail', () => {
  it('carries the link the first attempt delivered, and that link still sets the password', async () => {
    const api = apis[0]!;
    const reviewer = await signIn(api.app, 'reviewer');
    const proxy = await signIn(api.app, 'user');
    const userRole = await api.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
    const lost = createActivities(markFails(api.prisma), testMailSettings(), api.directory);
    const real = createActivities(api.prisma, testMailSettings(), api.directory);
    let attempts = 0;
    const overrides: Partial<PortalActivities> = {
      sendResolutionMail: async (input) => {
        if (attempts++ > 0) return real.sendResolutionMail(input);
        // The first attempt delivers the mail, then its sender is lost before it marks the mail SENT ...
        await expect(lost.sendResolutionMail(input)).rejects.toThrow(/lost after the send/);
        // ... and its claim outlives the lease: the retry takes the send over and renders the mail again.
        await api.prisma.outboundMail.update({
          where: { key: `${input.workflowId}:mail` },
          data: { claimedAt: new Date(0) },
        });
        throw ApplicationFailure.retryable('worker lost after the send');
      },
    };
    await withWorker(api, { overrides }, async () => {
      const filed = await caller(api.app)(proxy, 'POST', '/rest/secure/user_registration', await registrationBody(api));
      expect(filed.statusCode, filed.body).toBe(200);
      const reg = filed.json() as { id: number; email: string; workflowId: string };
      const approved = await caller(api.app)(reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
        registrationForm: { id: reg.id, versionno: 0 },
        portalRoleIds: [userRole.id],
        username: `rl${reg.id}`,
      });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'APPROVED' });
      expect(attempts).toBe(2);

      let mails: CaughtMail[] = [];
      await until(async () => {
        mails = (await readMail(stackEnv().MAIL_API_URL!)).filter(
          (m) => m.to.some((t) => t.address === reg.email) && m.subject.includes(APPROVED_SUBJECT),
        );
        return mails.length === 2;
      }, 'both deliveries of the approval mail');
      const [first, second] = mails.sort((a, b) => Date.parse(a.date) - Date.parse(b.date)).map(linkOf);
      // The person reads the first mail (a client may even drop the second: it has the same Message-ID).
      const live = await api.app.inject({ method: 'GET', url: `/rest/public/set_initial_password/${first}` });
      expect(live.json(), 'the link of the first mail is live').toBe(true);
      expect(second).toBe(first);
      const user = await api.prisma.portalUser.findFirstOrThrow({ where: { email: reg.email } });
      expect(await api.prisma.passwordLink.count({ where: { portalUserId: user.id } })).toBe(1);
      const set = await api.app.inject({
        method: 'POST',
        url: '/rest/public/set_initial_password',
        payload: { hash: first, password: freshPassword() },
      });
      expect(set.statusCode, set.body).toBe(200);
    });
  });
});
