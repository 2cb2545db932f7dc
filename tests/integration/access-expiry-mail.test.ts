/**
 * The access expiry's mails when the mail server refuses one recipient for good (issue 25 "Time-bound access":
 * each person is mailed; REQUEST-LIFECYCLE rule 5: a mail finally given up is audited MAIL_FAILED): a
 * permanently refused address must hold no other person's expiry mail or notice back, and is audited once.
 * The worker sends through a real SMTP server (`smtp-server`) started here that answers 550 for that address,
 * accepts this test's other addresses and answers 450 (try later) to everyone else's, so the expiry mails of
 * other test files stay pending for their own mail catcher.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { addDays, dayIn } from '@portal/contract';
import { ACCESS_EXPIRY_WORKFLOW_TYPE, type AccessExpiryInput } from '@portal/workflows';
import { type TestUser, createTestUser } from './auth-helpers';
import { roleBlockOf } from './fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from './harness';

const taskQueue = `access-expiry-mail-${Date.now()}`;
const DAY = 86_400_000;
let api: TestApi;
let call: ReturnType<typeof caller>;
let admin: Session;
let stopWorker: () => Promise<void>;
let smtp: SMTPServer;
const refused = new Set<string>();
const ours = new Set<string>();
const received: { to: string[]; subject: string }[] = [];

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, done) {
      const to = address.address.toLowerCase();
      if (refused.has(to)) return done(smtpError('5.1.1 No such user here', 550));
      if (!ours.has(to)) return done(smtpError('4.3.2 Not this test’s recipient, try later', 450));
      return done();
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? '',
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  call = caller(api.app);
  stopWorker = await startWorker(api, taskQueue, { smtpUrl: `smtp://127.0.0.1:${port}` });
  admin = await signIn(api.app, 'admin');
});
afterAll(async () => {
  await stopWorker?.();
  await api?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
});

const today = () => dayIn('UTC', new Date());

async function grant(u: TestUser, accessEndDate: string): Promise<void> {
  const block = await roleBlockOf(api.prisma, 'Safety Reviewer', { accessEndDate });
  const put = await call(admin, 'PUT', `/rest/secure/user_access/user/${u.user.id}`, { userAccesses: [block] });
  expect(put.statusCode, put.body).toBe(200);
}

describe('the access expiry’s mails when one address is refused for good (issue 25)', () => {
  it('mails the others and sends the notices; the refused one is audited MAIL_FAILED once and not retried', async () => {
    // The refused person's record comes first in every batch (the lowest id).
    const bad = await createTestUser(api, 'xmbad');
    const good = await createTestUser(api, 'xmgood');
    const soon = await createTestUser(api, 'xmsoon');
    refused.add(bad.email.toLowerCase());
    ours.add(good.email.toLowerCase()).add(soon.email.toLowerCase());
    await grant(bad, today());
    await grant(good, today());
    await grant(soon, addDays(today(), 9));

    const run = (n: number) =>
      api.deps.temporal.workflow.execute(ACCESS_EXPIRY_WORKFLOW_TYPE, {
        taskQueue,
        workflowId: `${taskQueue}-run-${n}`,
        args: [
          {
            timeZone: 'UTC',
            noticeDays: 14,
            now: new Date(Date.now() + 2 * DAY).toISOString(),
            mailDeadline: '5 seconds',
          } satisfies AccessExpiryInput,
        ],
        workflowExecutionTimeout: '2 minutes',
      });
    await run(1);

    const to = (u: TestUser, part: string) =>
      received.filter((m) => m.to.includes(u.email.toLowerCase()) && m.subject.includes(part));
    expect(to(good, 'access has ended')).toHaveLength(1);
    expect(to(soon, 'access ends on')).toHaveLength(1);
    expect(to(bad, 'access has ended')).toHaveLength(0);

    const failed = await api.prisma.auditEvent.findMany({
      where: { entityType: 'UserAccess', entityId: String(bad.user.id), action: 'MAIL_FAILED' },
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]!.after).toMatchObject({ to: bad.email, reason: expect.stringContaining('550') });
    // Settled: a later run neither tries it again nor audits it twice.
    const removal = await api.prisma.userAccess.findFirstOrThrow({
      where: { portalUserId: bad.user.id, expiredAt: { not: null } },
    });
    expect(removal.expiryMailSentAt).not.toBeNull();
    await run(2);
    expect(
      await api.prisma.auditEvent.count({
        where: { entityType: 'UserAccess', entityId: String(bad.user.id), action: 'MAIL_FAILED' },
      }),
    ).toBe(1);
    expect(to(good, 'access has ended')).toHaveLength(1);
  });
});
