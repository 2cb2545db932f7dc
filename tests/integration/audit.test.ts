/**
 * The audit trail (/rest/secure/audit_trail): READ_USERS reads it, server-paged, filtered by actor, entity
 * and date range and sorted; bad queries answer 422; configuration changes, request transitions written by
 * the worker (with their Temporal Web UI link) and the access they apply each appear once; no call edits or
 * deletes a row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent, Page } from '@portal/contract';
import type { Prisma } from '@portal/db';
import { auditEventsSql } from '../../api/src/features/audit/list-sql';
import { startWorker } from './harness';
import { type Session, type TestApi, caller, signIn, startApi, unique } from './config-support';

const URL = '/rest/secure/audit_trail';
const taskQueue = `audit-test-${Date.now()}`;
let api: TestApi;
let call: ReturnType<typeof caller>;
let admin: Session;
let readonly: Session;
let stopWorker: (() => Promise<void>) | undefined;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue });
  call = caller(api.app);
  [admin, readonly] = await Promise.all([signIn(api.app, 'admin'), signIn(api.app, 'readonly')]);
  stopWorker = await startWorker(api, taskQueue);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

const list = async (s: Session, query: string): Promise<Page<AuditEvent>> => {
  const res = await call(s, 'GET', `${URL}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('audit trail: access and validation', () => {
  it('needs READ_USERS', async () => {
    expect((await call(null, 'GET', URL)).statusCode).toBe(401);
    const user = await signIn(api.app, 'user');
    expect((await call(user, 'GET', URL)).statusCode).toBe(403);
    expect((await call(readonly, 'GET', URL)).statusCode).toBe(200);
  });

  it('answers bad queries with 422 fieldErrors', async () => {
    const bad = await call(readonly, 'GET', `${URL}?sort=password,asc&entityType=Nope&from=yesterday&size=0`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({
      // size=0 is out of range, not missing: `invalid` (issue 13, strict types).
      size: ['invalid'],
      sort: ['invalid'],
      entityType: ['invalid'],
      from: ['invalid'],
    });
    const range = await call(readonly, 'GET', `${URL}?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    expect(range.json()).toEqual({
      fieldErrors: { from: ['afterEndDate'], to: ['beforeStartDate'] },
      globalErrors: [],
    });
  });

  it('has no call that edits or deletes a row', async () => {
    // A row of its own, so the test does not depend on which file ran before it.
    await call(admin, 'POST', '/rest/secure/system_mgmt/system_access/', { systemName: unique('Audit Row') });
    const [row] = (await list(readonly, 'size=1')).content;
    expect(row).toBeDefined();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [URL, `${URL}/${row!.id}`]) {
        expect(
          (await call(admin, method, url, method === 'DELETE' ? undefined : {})).statusCode,
          `${method} ${url}`,
        ).toBe(404);
      }
    }
    expect(await api.prisma.auditEvent.count({ where: { id: BigInt(row!.id) } })).toBe(1);
  });
});

describe('audit trail: what it records and how it is read', () => {
  it('lists configuration changes with who, when, what, before and after; filters, sorts and pages', async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    const name = unique('Audit System');
    const system = (await call(admin, 'POST', '/rest/secure/system_mgmt/system_access/', { systemName: name })).json();
    await call(admin, 'PUT', `/rest/secure/system_mgmt/system_access/${system.id}`, {
      systemName: name,
      description: 'Now described.',
    });
    const end = new Date(Date.now() + 1000).toISOString();

    const page = await list(readonly, `entityType=SystemAccess&entityId=${system.id}&sort=at,asc`);
    expect(page.totalElements).toBe(2);
    expect(page.content.map((r) => r.action)).toEqual(['CREATED', 'UPDATED']);
    expect(page.content[1]).toMatchObject({
      actorUsername: 'admin',
      entityName: name,
      before: { systemName: name, description: '' },
      after: { systemName: name, description: 'Now described.' },
      workflowId: null,
      workflowUrl: null,
    });
    expect(Date.parse(page.content[1]!.at)).toBeGreaterThanOrEqual(Date.parse(start));

    const inRange = await list(readonly, `actor=ADM&entityType=SystemAccess&from=${start}&to=${end}`);
    expect(inRange.content.map((r) => r.entityId)).toContain(String(system.id));
    expect(inRange.content.every((r) => r.actorUsername === 'admin')).toBe(true);
    expect((await list(readonly, `entityId=${system.id}&entityType=SystemAccess&from=${end}`)).totalElements).toBe(0);
    expect((await list(readonly, `entityId=${system.id}&entityType=SystemAccess&to=${start}`)).totalElements).toBe(0);
    expect((await list(readonly, `actor=nobody-at-all&entityId=${system.id}`)).totalElements).toBe(0);

    const first = await list(readonly, `entityType=SystemAccess&entityId=${system.id}&size=1&page=1&sort=at,desc`);
    expect(first).toMatchObject({
      totalElements: 2,
      totalPages: 2,
      number: 1,
      first: true,
      last: false,
      sort: 'at,desc',
    });
    expect(first.content[0]!.action).toBe('UPDATED');
    const second = await list(readonly, `entityType=SystemAccess&entityId=${system.id}&size=1&page=2&sort=at,desc`);
    expect(second.content[0]!.action).toBe('CREATED');
    expect(second.last).toBe(true);
  });

  it("shows each request transition written by the worker once, with the workflow's Temporal UI link", async () => {
    const reviewer = await signIn(api.app, 'reviewer');
    const subject = await api.prisma.portalUser.findUniqueOrThrow({ where: { username: 'reviewer' } });
    const role = await api.prisma.studyRole.findUniqueOrThrow({
      where: { roleName: 'Safety Reviewer' },
      include: { systems: true },
    });
    await api.prisma.userAccess.updateMany({
      where: { portalUserId: subject.id, roleName: role.roleName },
      data: { inactive: true },
    });
    const filed = await call(reviewer, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: subject.id,
      requestType: 'NEW',
      accessControls: [{ roleName: role.roleName, systemAccessIds: role.systems.map((s) => s.systemId) }],
      requesterComments: 'Audit trail test',
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const request = filed.json();
    const review = (versionno: number, requestStatus: string, userAccesses?: unknown[]) =>
      call(reviewer, 'PUT', '/rest/secure/user_management/review_access_change_request', {
        userAccesses,
        userAccessModificationRequest: { id: request.id, versionno, requestStatus },
      });
    expect((await review(0, 'IN_PROGRESS')).statusCode).toBe(200);
    const current = await call(reviewer, 'GET', `/rest/secure/user_access/user/${subject.id}`);
    const applied = [...current.json().content, request.accessControls[0]];
    expect((await review(1, 'APPROVED', applied)).statusCode).toBe(200);

    // The resolution mail is sent after the review has returned; wait for its row too.
    const query = `entityType=AccessModRequest&entityId=${request.id}&sort=at,asc`;
    await expect.poll(async () => (await list(readonly, query)).totalElements, { timeout: 20_000 }).toBe(4);
    const rows = (await list(readonly, query)).content;
    expect(rows.map((r) => r.action)).toEqual(['CREATED', 'STATUS_IN_PROGRESS', 'STATUS_APPROVED', 'MAIL_SENT']);
    for (const r of rows) {
      expect(r).toMatchObject({ workflowId: request.workflowId, entityName: `Request #${request.id}` });
      expect(r.workflowUrl).toContain(`/namespaces/default/workflows/${request.workflowId}`);
    }
    expect(rows.slice(0, 3).every((r) => r.actorUsername === 'reviewer')).toBe(true);
    expect(rows[2]).toMatchObject({ before: { requestStatus: 'IN_PROGRESS' }, after: { requestStatus: 'APPROVED' } });

    const written = (await list(readonly, `entityType=UserAccess&entityId=${subject.id}&filter=${request.workflowId}`))
      .content;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      action: 'ACCESS_UPDATED',
      workflowId: request.workflowId,
      after: { requestId: request.id },
    });
  });
});

describe('audit trail: the free-text total', () => {
  it('is exact when counted from the per-action counts: every match once, whichever field it is in', async () => {
    // A word of this run only, in actions, workflow ids and entity ids (rows are written as the worker does).
    const word = `zq${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const WORD = word.toUpperCase();
    const row = (action: string, workflowId: string | null, entityId = 'x') => ({
      actorUsername: 'system',
      entityType: 'AccessModRequest',
      entityId,
      action,
      workflowId,
    });
    await api.prisma.auditEvent.createMany({
      data: [
        ...Array.from({ length: 3 }, () => row(`TEST_${WORD}_DONE`, 'other-1')), // the action
        ...Array.from({ length: 2 }, (_, i) => row('TEST_PLAIN', `wf-${word}-${i}`)), // the workflow id
        row(`TEST_${WORD}_DONE`, `wf-${word}-9`), // both: counted once
        ...Array.from({ length: 2 }, () => row('TEST_PLAIN', null, word)), // the entity id
        row(`TEST_${WORD}_DONE`, null, word), // action and entity id: once
        row('TEST_PLAIN', `wf-${word}-8`, word), // workflow id and entity id: once
        row('TEST_PLAIN', null, WORD), // the entity id in capitals: only the text in capitals finds it
        row('TEST_PLAIN', `wf-${word}%_x`), // LIKE's wildcards in the text are plain characters
      ],
    });
    /** The total the route answers beside a plain count of the rows the filter matches. */
    const totals = async (filter: string) => {
      const page = await list(readonly, `filter=${encodeURIComponent(filter)}&size=50`);
      const like = `%${filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const [plain] = await api.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM "AuditEvent" WHERE "searchText" LIKE ${like} OR "entityId" = ${filter}`;
      expect(page.content).toHaveLength(Math.min(page.totalElements, 50));
      return { route: page.totalElements, plain: plain!.n };
    };
    expect(await totals(word)).toEqual({ route: 11, plain: 11 });
    expect(await totals(WORD)).toEqual({ route: 10, plain: 10 });
    expect(await totals(`${word}%_x`)).toEqual({ route: 1, plain: 1 });
    expect(await totals(`${word}%`)).toEqual({ route: 1, plain: 1 });
    expect(await totals(`test_${word}_done`)).toEqual({ route: 5, plain: 5 });
    expect(await totals(`${word}-absent`)).toEqual({ route: 0, plain: 0 });
    // With another filter beside it, the rows are counted one by one: the same rows.
    const typed = await list(readonly, `filter=${word}&entityType=AccessModRequest&size=50`);
    expect(typed.totalElements).toBe(11);
  });
});

describe('audit trail: a filter matching many rows, in time order', () => {
  it('reads the same pages whether the walk of the newest rows finds them or falls short', async () => {
    const recent = `zr${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const old = `zo${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const rows = (word: string, at: (i: number) => Date) =>
      Array.from({ length: 120 }, (_, i) => ({
        at: at(i),
        actorUsername: 'system',
        entityType: 'AccessModRequest',
        entityId: String(i),
        action: `TEST_${word.toUpperCase()}`,
        workflowId: null,
      }));
    await api.prisma.auditEvent.createMany({
      data: [
        ...rows(recent, (i) => new Date(Date.now() - 120_000 + i * 1000)),
        // Matches older than every other row: a walk from the newest end never reaches them.
        ...rows(old, (i) => new Date(Date.UTC(2001, 0, 1, 0, 0, i))),
      ],
    });
    /** The ids of one page as a plain ordered query reads them. */
    const expected = async (word: string, dir: 'ASC' | 'DESC', offset: number, size: number) =>
      (
        await api.prisma.$queryRawUnsafe<{ id: bigint }[]>(
          `SELECT id FROM "AuditEvent" WHERE "searchText" LIKE $1 ORDER BY at ${dir}, id ${dir} LIMIT ${size} OFFSET ${offset}`,
          `%${word}%`,
        )
      ).map((r) => String(r.id));
    for (const word of [recent, old]) {
      for (const [page, sort, dir, offset] of [
        [1, 'at,desc', 'DESC', 0],
        [2, 'at,desc', 'DESC', 25],
        [5, 'at,desc', 'DESC', 100], // the last page, read from the other end
        [1, 'at,asc', 'ASC', 0],
      ] as const) {
        const got = await list(readonly, `filter=${word}&size=25&page=${page}&sort=${sort}`);
        expect(got.totalElements, `${word} page ${page} ${sort}`).toBe(120);
        expect(
          got.content.map((r) => String(r.id)),
          `${word} page ${page} ${sort}`,
        ).toEqual(await expected(word, dir, offset, 25));
      }
    }

    // The walk itself: long enough, it holds the newest matches; too short for the old ones, it comes back short.
    const firstPage = auditEventsSql({ page: 1, size: 25, filter: recent }, 'at', 'desc', 120);
    const oldPage = auditEventsSql({ page: 1, size: 25, filter: old }, 'at', 'desc', 120);
    const run = (sql: Prisma.Sql) => api.prisma.$queryRawUnsafe<{ id: bigint }[]>(sql.text, ...sql.values);
    // Long enough: every row since the first of this word's rows (other test files write audit rows meanwhile,
    // so a fixed length such as MAX_WALK, 20,000, may not reach back to them), with room for those written after the count.
    const [since] = await api.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "AuditEvent"
      WHERE "at" >= (SELECT min("at") FROM "AuditEvent" WHERE "action" = ${`TEST_${recent.toUpperCase()}`})`;
    expect((await run(firstPage.walk!(since!.n + 10_000))).map((r) => String(r.id))).toEqual(
      await expected(recent, 'DESC', 0, 25),
    );
    const [newer] = await api.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "AuditEvent" WHERE "at" >= '2002-01-01'`;
    expect(await run(oldPage.walk!(newer!.n))).toHaveLength(0);
  });
});
