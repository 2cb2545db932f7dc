/**
 * Time-bound access (issue 25) against real PostgreSQL, Temporal, OpenLDAP and the mail catcher with an
 * in-process worker: end dates on the Access tab's calls (422 past / beyond ACCESS_MAX_DAYS, 304 when the same,
 * kept when an old client leaves them out), the expiry workflow removing what ended (once, however many runs
 * overlap, an open request of the person notwithstanding, audited ACCESS_EXPIRED and mailed), the one notice
 * before the end, and an extension filed as a CHANGE and applied by the review. The clock moves through the
 * workflow's injected `now`; nothing sleeps, every wait polls with a deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DATE_MESSAGES, type UserAccess, addDays, dayIn } from '@portal/contract';
import { readMail } from '@portal/scripts';
import { ensureAccessExpirySchedule } from '@portal/worker';
import { ACCESS_EXPIRY_WORKFLOW_TYPE, type AccessExpiryInput, type AccessExpiryResult } from '@portal/workflows';
import { type TestUser, createTestUser } from './auth-helpers';
import { demoRequestParts, roleBlockOf, stackEnv, waitForMail } from './fixtures';
import { BATCH_URL, batchEnded, subjectsAt } from './proxy-batch/support';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from './harness';
import { maybeRecordHistory, until } from './lifecycle/support';

const taskQueue = `access-expiry-${Date.now()}`;
const BASE = '/rest/secure/user_access';
const REVIEW = '/rest/secure/user_management/review_access_change_request';
const DAY = 86_400_000;
let api: TestApi;
let call: ReturnType<typeof caller>;
let admin: Session;
let reviewer: Session;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, REVIEW_DEADLINE_MS: '8000' });
  call = caller(api.app);
  stopWorker = await startWorker(api, taskQueue);
  admin = await signIn(api.app, 'admin');
  reviewer = await signIn(api.app, 'reviewer');
});
afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

const today = () => dayIn('UTC', new Date());
const blockOf = (roleName: string, extra: Record<string, unknown> = {}) => roleBlockOf(api.prisma, roleName, extra);
const recordsOf = async (u: TestUser): Promise<UserAccess[]> =>
  (await call(admin, 'GET', `${BASE}/user/${u.user.id}`)).json().content;
const activeOf = (u: TestUser) =>
  api.prisma.userAccess.findMany({ where: { portalUserId: u.user.id, inactive: false }, orderBy: { roleName: 'asc' } });
const mailsTo = async (to: string, subjectPart: string) =>
  (await readMail(stackEnv().MAIL_API_URL!)).filter(
    (m) => m.to.some((t) => t.address === to) && m.subject.includes(subjectPart),
  );

/**
 * One run of the expiry workflow with the clock at `daysAhead` days from now (the schedule's input otherwise);
 * with `history`, its history is recorded under tests/histories/access-expiry/ when RECORD_HISTORIES=1.
 */
let runs = 0;
async function runExpiry(
  daysAhead: number,
  extra: Partial<AccessExpiryInput> = {},
  history?: string,
): Promise<AccessExpiryResult> {
  const workflowId = `${taskQueue}-run-${++runs}`;
  const result = await api.deps.temporal.workflow.execute(ACCESS_EXPIRY_WORKFLOW_TYPE, {
    taskQueue,
    workflowId,
    args: [
      {
        timeZone: 'UTC',
        noticeDays: 14,
        now: new Date(Date.now() + daysAhead * DAY).toISOString(),
        ...extra,
      } satisfies AccessExpiryInput,
    ],
    workflowExecutionTimeout: '2 minutes',
  });
  if (history) await maybeRecordHistory({ client: api.deps.temporal }, workflowId, 'access-expiry', history);
  return result;
}

describe('end dates on the Access tab (000 §7 user_access, issue 25)', () => {
  it('refuses a past end date and one beyond ACCESS_MAX_DAYS with 422 fieldErrors', async () => {
    const u = await createTestUser(api, 'xpval');
    const url = `${BASE}/user/${u.user.id}`;
    const past = await call(admin, 'PUT', url, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: addDays(today(), -1) })],
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().fieldErrors).toEqual({ 'userAccesses[0].accessEndDate': [ACCESS_DATE_MESSAGES.past] });
    const far = await call(admin, 'PUT', url, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: addDays(today(), 731) })],
    });
    expect(far.json().fieldErrors).toEqual({ 'userAccesses[0].accessEndDate': [ACCESS_DATE_MESSAGES.tooFar(730)] });
    const badDay = await call(admin, 'PUT', url, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: '2027-02-30' })],
    });
    expect(badDay.statusCode).toBe(422);
    expect(Object.keys(badDay.json().fieldErrors)).toEqual(['userAccesses[0].accessEndDate']);
    // The single-record call keys the error by the body's field.
    const single = await call(admin, 'POST', BASE, {
      ...(await blockOf('Safety Reviewer', { accessEndDate: addDays(today(), -3) })),
      portalUserId: u.user.id,
    });
    expect(single.json().fieldErrors).toEqual({ accessEndDate: [ACCESS_DATE_MESSAGES.past] });
  });

  it('stores and shows the end date; the same one is 304; an old client that leaves it out keeps it', async () => {
    const u = await createTestUser(api, 'xpset');
    const url = `${BASE}/user/${u.user.id}`;
    const end = addDays(today(), 730);
    const sr = await blockOf('Safety Reviewer', { accessEndDate: end });
    expect((await call(admin, 'PUT', url, { userAccesses: [sr] })).statusCode).toBe(200);
    const [record] = await recordsOf(u);
    expect(record).toMatchObject({ accessEndDate: end, accessEndsSoon: false, versionno: 1 });
    // The same end date changes nothing; leaving it out (an old client) keeps it.
    expect((await call(admin, 'PUT', url, { userAccesses: [record] })).statusCode).toBe(304);
    const old = await blockOf('Safety Reviewer');
    expect((await call(admin, 'PUT', url, { userAccesses: [{ ...old, id: record!.id }] })).statusCode).toBe(304);
    // Shortening it is a change: a new version, marked as ending soon within the notice window.
    const soon = addDays(today(), 5);
    const short = await call(admin, 'PUT', url, { userAccesses: [{ ...record, accessEndDate: soon }] });
    expect(short.statusCode, short.body).toBe(200);
    const [v2] = await recordsOf(u);
    expect(v2).toMatchObject({ accessEndDate: soon, accessEndsSoon: true, versionno: 2 });
    // The users list shows the first end date of the person's access, marked within the notice window.
    const listed = await call(admin, 'GET', `/rest/secure/user_management/users?filter=${u.username}`);
    expect(listed.json().content).toEqual([
      expect.objectContaining({ id: u.user.id, accessEndDate: soon, accessEndsSoon: true }),
    ]);
    // null takes the end date away.
    expect((await call(admin, 'PUT', url, { userAccesses: [{ ...v2, accessEndDate: null }] })).statusCode).toBe(200);
    expect((await recordsOf(u))[0]).toMatchObject({ accessEndDate: null, accessEndsSoon: false, versionno: 3 });
  });
});

describe('end dates on requests and proxy batches (issue 25)', () => {
  it('refuses a past end date on an own request and a batch; a batch files it into every request', async () => {
    const u = await createTestUser(api, 'xpreq');
    const session = await signIn(api.app, u.username, u.password);
    const past = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'NEW',
      accessControls: [await blockOf('Safety Reviewer', { accessEndDate: addDays(today(), -1) })],
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().fieldErrors).toEqual({ 'accessControls[0].accessEndDate': [ACCESS_DATE_MESSAGES.past] });

    const laostaff = await signIn(api.app, 'laostaff');
    const { block } = await demoRequestParts(api.prisma);
    const users = await subjectsAt(api.prisma, 'MA036', 2, 'xppb');
    const far = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: users.map((x) => x.id),
      accessControls: [{ ...block, accessEndDate: addDays(today(), 800) }],
    });
    expect(far.statusCode).toBe(422);
    expect(far.json().fieldErrors).toEqual({ 'accessControls[0].accessEndDate': [ACCESS_DATE_MESSAGES.tooFar(730)] });
    const end = addDays(today(), 30);
    const started = await call(laostaff, 'POST', BATCH_URL, {
      portalUserIds: users.map((x) => x.id),
      accessControls: [{ ...block, accessEndDate: end }],
    });
    expect(started.statusCode, started.body).toBe(200);
    expect((await batchEnded(api.prisma, started.json().id)).status).toBe('COMPLETED');
    const filed = await api.prisma.accessModRequest.findMany({
      where: { subjectUserId: { in: users.map((x) => x.id) } },
    });
    expect(filed.map((r) => (r.accessControls as { accessEndDate?: string }[])[0]!.accessEndDate)).toEqual([end, end]);
  });
});

describe('the access expiry workflow (issue 25)', () => {
  it('removes an ended access once, however many runs overlap, despite an open request; audited and mailed', async () => {
    const u = await createTestUser(api, 'xpend');
    const end = addDays(today(), 1);
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: end }), await blockOf('Data Manager')],
    });
    const [dm, sr] = await activeOf(u);
    // The person's open request for that very role does not hold the expiry back.
    const session = await signIn(api.app, u.username, u.password);
    const filed = await call(session, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: u.user.id,
      requestType: 'CHANGE',
      accessControls: [await blockOf('Safety Reviewer')],
      requesterComments: 'Please keep this access.',
    });
    expect(filed.statusCode, filed.body).toBe(200);

    // On the end date itself the access still holds (inclusive): nothing is removed.
    await runExpiry(0.5);
    expect((await activeOf(u)).map((r) => r.id)).toEqual([dm!.id, sr!.id]);

    // Two days on, three overlapping runs: the record is removed once.
    await Promise.all([runExpiry(2, {}, 'removed-overlapping'), runExpiry(2), runExpiry(2)]);
    expect((await activeOf(u)).map((r) => r.roleName)).toEqual(['Data Manager']);
    const versions = await api.prisma.userAccess.findMany({ where: { priorAccessControlId: sr!.id } });
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ inactive: true, lastModifiedBy: 'system' });
    expect(versions[0]!.expiredAt).not.toBeNull();
    const audit = await api.prisma.auditEvent.findMany({
      where: { entityType: 'UserAccess', entityId: String(u.user.id), action: 'ACCESS_EXPIRED' },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ priorId: sr!.id, roleName: 'Safety Reviewer', accessEndDate: end });

    // The person is mailed once; a later run neither removes nor mails again.
    const mail = await waitForMail(u.email, 'access has ended');
    expect(mail.text).toContain(`ended on ${end}`);
    await runExpiry(3);
    await until(
      async () =>
        (await api.prisma.userAccess.findUniqueOrThrow({ where: { id: versions[0]!.id } })).expiryMailSentAt !== null,
      'the expiry mail marked sent',
    );
    expect(await mailsTo(u.email, 'access has ended')).toHaveLength(1);
    expect(await api.prisma.userAccess.count({ where: { priorAccessControlId: sr!.id } })).toBe(1);
    // The open request is still open: it meets the removal as any concurrent change.
    const open = await api.prisma.accessModRequest.findUniqueOrThrow({ where: { id: filed.json().id } });
    expect(open.requestStatus).toBe('NEW');
  });

  it('removes the others when one person’s removal keeps failing, ends the run, and removes that one later', async () => {
    const [good, bad] = [await createTestUser(api, 'xpgood'), await createTestUser(api, 'xpbad')];
    for (const u of [good, bad]) {
      await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
        userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: today() })],
      });
    }
    // PostgreSQL refuses every change to one person's access records (a record the writer cannot remove).
    const name = `test_refuse_access_${bad.user.id}`;
    await api.prisma.$executeRawUnsafe(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
    );
    await api.prisma.$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE UPDATE ON "UserAccess" FOR EACH ROW WHEN (OLD."portalUserId" = ${bad.user.id}) EXECUTE FUNCTION ${name}()`,
    );
    try {
      const result = await runExpiry(2, { removalAttempts: 2 });
      expect(result.failed).toBeGreaterThanOrEqual(1);
      expect(await activeOf(good)).toEqual([]);
      expect((await activeOf(bad)).map((r) => r.roleName)).toEqual(['Safety Reviewer']);
    } finally {
      await api.prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON "UserAccess"`);
      await api.prisma.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
    // The next run removes it.
    await runExpiry(2, { removalAttempts: 2 });
    expect(await activeOf(bad)).toEqual([]);
  });

  it('leaves the mail to the next run when SMTP stays down past the run’s mail deadline; the removal stands', async () => {
    const u = await createTestUser(api, 'xpsmtp');
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: today() })],
    });
    // A worker of its own whose SMTP server refuses every connection (nothing listens on port 9).
    const downQueue = `${taskQueue}-smtp-down`;
    const stop = await startWorker(api, downQueue, { smtpUrl: 'smtp://127.0.0.1:9' });
    const workflowId = `${downQueue}-run`;
    try {
      const result = await api.deps.temporal.workflow.execute(ACCESS_EXPIRY_WORKFLOW_TYPE, {
        taskQueue: downQueue,
        workflowId,
        args: [
          {
            timeZone: 'UTC',
            noticeDays: 14,
            now: new Date(Date.now() + 2 * DAY).toISOString(),
            mailDeadline: '3 seconds',
          } satisfies AccessExpiryInput,
        ],
        workflowExecutionTimeout: '2 minutes',
      });
      expect(result.removed).toBeGreaterThanOrEqual(1);
      expect(result.mailed).toBe(0);
      await maybeRecordHistory({ client: api.deps.temporal }, workflowId, 'access-expiry', 'mail-left-for-next-run');
    } finally {
      await stop();
    }
    expect(await activeOf(u)).toEqual([]);
    const removal = await api.prisma.userAccess.findFirstOrThrow({
      where: { portalUserId: u.user.id, expiredAt: { not: null } },
    });
    expect(removal.expiryMailSentAt).toBeNull();
    // The next run (SMTP back) sends it.
    await runExpiry(2);
    await waitForMail(u.email, 'access has ended');
  });

  it('ends an access at the end of its last day in the network time zone', async () => {
    const u = await createTestUser(api, 'xptz');
    const end = today();
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: end })],
    });
    const noon = `${end}T12:00:00.000Z`;
    // At noon UTC it is still that day in Pago Pago (UTC-11): the access holds.
    await runExpiry(0, { now: noon, timeZone: 'Pacific/Pago_Pago' });
    expect(await activeOf(u)).toHaveLength(1);
    // In Kiritimati (UTC+14) the day after has begun: the access ended.
    await runExpiry(0, { now: noon, timeZone: 'Pacific/Kiritimati' });
    expect(await activeOf(u)).toEqual([]);
  });

  it('removes in batches: a run with a batch of 1 removes every ended record of several people', async () => {
    const people = await Promise.all([createTestUser(api, 'xpb1'), createTestUser(api, 'xpb2')]);
    for (const p of people) {
      await call(admin, 'PUT', `${BASE}/user/${p.user.id}`, {
        userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: today() })],
      });
    }
    const result = await runExpiry(1, { batchSize: 1 }, 'batches');
    expect(result.removed).toBeGreaterThanOrEqual(2);
    for (const p of people) expect(await activeOf(p)).toEqual([]);
  });

  it('sends one notice before the end, never two, with a link to request an extension', async () => {
    const u = await createTestUser(api, 'xpnote');
    const end = addDays(today(), 20);
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [await blockOf('Data Manager', { accessEndDate: end })],
    });
    // 20 days ahead is outside the 14-day window: no notice yet.
    await runExpiry(0);
    expect(await mailsTo(u.email, 'access ends on')).toHaveLength(0);
    // Inside the window: one notice, whatever the number of runs.
    await runExpiry(7, {}, 'notice');
    const notice = await waitForMail(u.email, `access ends on ${end}`);
    const [record] = await activeOf(u);
    expect(notice.text).toContain(`existingUserAccessId=${record!.id}`);
    expect(notice.text).toContain('accessRequestType=UPDATE');
    expect(record!.expiryNoticeSentAt).not.toBeNull();
    await Promise.all([runExpiry(8), runExpiry(9)]);
    // A change that keeps the end date keeps the notice sent for it.
    const [shown] = await recordsOf(u);
    const siteChange = await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [{ ...shown, siteCodes: ['MA036'] }],
    });
    expect(siteChange.statusCode, siteChange.body).toBe(200);
    await runExpiry(10);
    expect(await mailsTo(u.email, 'access ends on')).toHaveLength(1);
  });

  it('extends an access through a CHANGE request carrying a new end date, applied by the review', async () => {
    const u = await createTestUser(api, 'xpext');
    const end = addDays(today(), 3);
    await call(admin, 'PUT', `${BASE}/user/${u.user.id}`, {
      userAccesses: [await blockOf('Safety Reviewer', { accessEndDate: end })],
    });
    const session = await signIn(api.app, u.username, u.password);
    const block = await blockOf('Safety Reviewer');
    const file = (accessEndDate: string) =>
      call(session, 'POST', '/rest/secure/user_access_mod_request', {
        portalUserId: u.user.id,
        requestType: 'CHANGE',
        accessControls: [{ ...block, accessEndDate }],
      });
    // The same end date is no change (304); a later one is an extension.
    expect((await file(end)).statusCode).toBe(304);
    const later = addDays(today(), 200);
    const filed = await file(later);
    expect(filed.statusCode, filed.body).toBe(200);
    const request = filed.json() as { id: number; versionno: number; accessControls: { accessEndDate?: string }[] };
    expect(request.accessControls[0]!.accessEndDate).toBe(later);

    // The reviewer applies it: the record's new version ends later, and the expiry leaves it alone.
    const [record] = await recordsOf(u);
    const approved = await call(reviewer, 'PUT', REVIEW, {
      userAccesses: [{ ...record, accessEndDate: later }],
      userAccessModificationRequest: {
        id: request.id,
        versionno: request.versionno,
        requestStatus: 'APPROVED',
        reviewerComments: '',
        sysaidTicket: '',
      },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const [extended] = await recordsOf(u);
    expect(extended).toMatchObject({ accessEndDate: later, versionno: 2, formId: request.id });
    await runExpiry(10);
    expect((await activeOf(u)).map((r) => r.id)).toEqual([extended!.id]);
  });

  it('runs from a Temporal Schedule: a grant that ended yesterday is gone within one interval', async () => {
    const u = await createTestUser(api, 'xpsched');
    const block = await blockOf('Safety Reviewer');
    await api.prisma.userAccess.create({
      data: {
        portalUserId: u.user.id,
        ...block,
        accessEndDate: new Date(`${addDays(today(), -1)}T00:00:00Z`),
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    const scheduleId = `${taskQueue}-schedule`;
    await ensureAccessExpirySchedule(api.deps.temporal, {
      scheduleId,
      every: '2 seconds',
      timeZone: 'UTC',
      noticeDays: 14,
      taskQueue,
    });
    try {
      await until(async () => (await activeOf(u)).length === 0, 'the scheduled expiry', 30_000);
      await waitForMail(u.email, 'access has ended');
      // Converges on a new configuration instead of failing when the schedule exists.
      await ensureAccessExpirySchedule(api.deps.temporal, {
        scheduleId,
        every: '15 minutes',
        timeZone: 'Europe/Berlin',
        noticeDays: 7,
        taskQueue,
      });
      const desc = await api.deps.temporal.schedule.getHandle(scheduleId).describe();
      expect(desc.spec.intervals?.[0]?.every).toBe(15 * 60_000);
      expect(desc.action.type === 'startWorkflow' && desc.action.args).toEqual([
        { timeZone: 'Europe/Berlin', noticeDays: 7 },
      ]);
    } finally {
      await api.deps.temporal.schedule.getHandle(scheduleId).delete();
    }
  });
});
