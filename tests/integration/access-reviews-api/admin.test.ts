/**
 * ADMIN's routes of access review campaigns (issue 25) on the real stack with an in-process worker: 403 for
 * everyone else on every route, 422 for a bad or unknown definition, a campaign started through the API whose
 * workflow stores its items (polled with a deadline), its progress in the list and the detail (by reviewer, by
 * pool), its decisions as CSV, an early close and a cancel through the workflow's updates (a second close
 * refused with the workflow's message), a recurring review whose Temporal Schedule exists and whose first run
 * files a campaign, and its deactivation. Temporal unreachable: a close and a new recurring review answer 503
 * and store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleNotFoundError } from '@temporalio/client';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewCampaign } from '@portal/contract';
import { ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE } from '@portal/workflows';
import type { TestUser } from '../auth-helpers';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { until } from '../lifecycle/support';
import { grant, laoReviewer, person, unique } from './support';

const CAMPAIGNS = '/rest/secure/system_mgmt/access_reviews';
const SCHEDULES = '/rest/secure/system_mgmt/access_review_schedules';
const UI = 'http://temporal-ui.test';
const taskQueue = unique('access-reviews-api-');

let api: TestApi;
let call: ReturnType<typeof caller>;
let stopWorker: () => Promise<void>;
let admin: Session;
let support: Session;
let plain: Session;
let staff: Session;
let staffUser: TestUser;
const lao = unique('AR');

beforeAll(async () => {
  api = await startApi({ TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_UI_URL: UI, REVIEW_DEADLINE_MS: '10000' });
  call = caller(api.app);
  stopWorker = await startWorker(api, taskQueue);
  // An LAO is listed as an AO too (the seed's sites): the public sites list stays as reference.test.ts expects,
  // also while that file reads it beside this one, so both rows are written by one statement.
  await api.prisma.site.createMany({
    data: [
      { siteCode: lao, siteName: `${lao} LAO`, siteType: 'LAO', laoCode: lao },
      { siteCode: lao, siteName: `${lao} LAO`, siteType: 'AO' },
    ],
  });
  staffUser = await laoReviewer(api, 'aradminstaff', [lao]);
  for (const name of ['Kim', 'Lee'])
    await grant(api.prisma, await person(api.prisma, name), 'Data Manager', { laoIds: [lao] });
  [admin, support, plain, staff] = await Promise.all([
    signIn(api.app, 'admin'),
    signIn(api.app, 'reviewer'),
    signIn(api.app, 'user'),
    signIn(api.app, staffUser.username, staffUser.password),
  ]);
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

const definition = (extra: Record<string, unknown> = {}) => ({
  name: unique('Review '),
  scope: { laoIds: [lao] },
  reviewers: 'LAO_STAFF',
  ...extra,
});
const campaignRow = (id: number) => api.prisma.accessReviewCampaign.findUniqueOrThrow({ where: { id } });
const untilStatus = (id: number, status: string) =>
  until(async () => (await campaignRow(id)).status === status, `campaign ${id} ${status}`, 60_000);

/** Starts a campaign over the test's LAO through the API and waits until it is OPEN. */
async function startOpen(): Promise<AccessReviewCampaign> {
  const res = await call(admin, 'POST', CAMPAIGNS, definition());
  expect(res.statusCode, res.body).toBe(200);
  const campaign = res.json() as AccessReviewCampaign;
  await untilStatus(campaign.id, 'OPEN');
  return campaign;
}

describe('ADMIN only', () => {
  it('403 for User Support, a network user and LAO staff on every route, before the input is read', async () => {
    // Named uniquely: other files store campaigns and schedules beside this one, so "nothing stored" is
    // looked up by the names sent here.
    const campaignBody = definition();
    const scheduleBody = definition({ everyDays: 90 });
    const calls: [string, string, unknown?][] = [
      ['GET', CAMPAIGNS],
      ['POST', CAMPAIGNS, campaignBody],
      ['POST', CAMPAIGNS, { name: '' }],
      ['GET', `${CAMPAIGNS}/1`],
      ['POST', `${CAMPAIGNS}/1/close`, {}],
      ['POST', `${CAMPAIGNS}/1/cancel`, {}],
      ['GET', `${CAMPAIGNS}/1/decisions.csv`],
      ['GET', SCHEDULES],
      ['POST', SCHEDULES, scheduleBody],
      ['POST', `${SCHEDULES}/1/deactivate`, {}],
    ];
    const names = { name: { in: [campaignBody.name, scheduleBody.name] } };
    for (const s of [support, plain, staff]) {
      for (const [method, url, body] of calls) {
        const res = await call(s, method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect(await api.prisma.accessReviewCampaign.count({ where: names })).toBe(0);
    expect(await api.prisma.accessReviewSchedule.count({ where: names })).toBe(0);
  });

  it('422 for a bad definition and for scope names that do not exist; 404 for an unknown campaign', async () => {
    const bad = await call(admin, 'POST', CAMPAIGNS, { name: '', durationDays: 0, defaultDecision: 'MAYBE' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['defaultDecision', 'durationDays', 'name']);
    const unknown = await call(admin, 'POST', CAMPAIGNS, {
      name: 'Unknown scope',
      scope: { systemAccessIds: [2147483647], roleNames: ['No such role'], laoIds: ['NOLAO'] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().fieldErrors).toEqual({
      'scope.systemAccessIds': ['unknown'],
      'scope.roleNames': ['unknown'],
      'scope.laoIds': ['unknown'],
    });
    const schedule = await call(admin, 'POST', SCHEDULES, definition({ everyDays: 0, scope: { laoIds: ['NOLAO'] } }));
    expect(schedule.json().fieldErrors).toEqual({ everyDays: ['invalid'] });
    expect(
      (await call(admin, 'POST', SCHEDULES, definition({ scope: { laoIds: ['NOLAO'] } }))).json().fieldErrors,
    ).toEqual({
      'scope.laoIds': ['unknown'],
    });
    expect((await call(admin, 'GET', `${CAMPAIGNS}/2147483647`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `${CAMPAIGNS}/2147483647/decisions.csv`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `${CAMPAIGNS}/2147483647/close`, {})).statusCode).toBe(404);
  });
});

it('the OpenAPI document describes every route with its answer', async () => {
  const doc = (await api.app.inject({ method: 'GET', url: '/rest/public/openapi.json' })).json();
  const routes: [string, string][] = [
    ['/rest/secure/access_review/mine', 'get'],
    ['/rest/secure/access_review/items', 'get'],
    ['/rest/secure/access_review/decisions', 'post'],
    [CAMPAIGNS, 'get'],
    [CAMPAIGNS, 'post'],
    [`${CAMPAIGNS}/{id}`, 'get'],
    [`${CAMPAIGNS}/{id}/close`, 'post'],
    [`${CAMPAIGNS}/{id}/cancel`, 'post'],
    [`${CAMPAIGNS}/{id}/decisions.csv`, 'get'],
    [SCHEDULES, 'get'],
    [SCHEDULES, 'post'],
    [`${SCHEDULES}/{id}/deactivate`, 'post'],
  ];
  for (const [path, method] of routes) {
    expect(doc.paths[path]?.[method]?.responses?.['200'], `${method} ${path}`).toBeDefined();
  }
  const item = doc.paths['/rest/secure/access_review/items'].get.responses['200'].content['application/json'].schema;
  expect(JSON.stringify(item)).toContain('systemNames');
});

describe('a campaign', () => {
  let campaign: AccessReviewCampaign;

  it('starts through the API: filed, audited, its workflow stores the items of its scope', async () => {
    const res = await call(admin, 'POST', CAMPAIGNS, definition({ defaultDecision: 'KEEP' }));
    expect(res.statusCode, res.body).toBe(200);
    campaign = res.json();
    expect(campaign).toMatchObject({
      workflowId: `access-review-${campaign.id}`,
      workflowUrl: `${UI}/namespaces/default/workflows/access-review-${campaign.id}`,
      scope: { systemAccessIds: [], roleNames: [], laoIds: [lao] },
      reviewers: 'LAO_STAFF',
      durationDays: 14,
      createdByUsername: 'admin',
      scheduleId: null,
    });
    expect(
      await api.prisma.auditEvent.count({
        where: { entityType: 'AccessReview', entityId: String(campaign.id), action: 'CREATED' },
      }),
    ).toBe(1);
    await untilStatus(campaign.id, 'OPEN');
    // Kim's and Lee's records of the LAO; the LAO staff member's own record of it too (reviewed by the others).
    expect(await api.prisma.accessReviewItem.count({ where: { campaignId: campaign.id } })).toBe(3);
    const started = await api.deps.temporal.workflow.getHandle(campaign.workflowId).describe();
    expect(started.status.name).toBe('RUNNING');
  });

  it('its progress in the list and the detail: decided, undecided, to remove, by reviewer and by pool', async () => {
    const items = await call(staff, 'GET', `/rest/secure/access_review/items?campaignId=${campaign.id}`);
    const [kim] = items.json().content;
    expect(kim).toMatchObject({ lastName: 'Kim', pools: [lao] });
    const decided = await call(staff, 'POST', '/rest/secure/access_review/decisions', {
      campaignId: campaign.id,
      itemIds: [kim.id],
      decision: 'REMOVE',
      comment: '=Left the LAO',
    });
    expect(decided.json().decided).toBe(1);
    const list = await call(admin, 'GET', `${CAMPAIGNS}?size=200`);
    expect(list.statusCode).toBe(200);
    expect(list.json().content.find((c: AccessReviewCampaign) => c.id === campaign.id)).toMatchObject({
      status: 'OPEN',
      itemsTotal: 3,
      decided: 1,
      undecided: 2,
      toRemove: 1,
    });
    expect(list.json().content[0].id).toBeGreaterThanOrEqual(campaign.id);
    const detail = await call(admin, 'GET', `${CAMPAIGNS}/${campaign.id}`);
    expect(detail.json()).toMatchObject({
      id: campaign.id,
      byReviewer: [{ username: staffUser.username, keep: 0, remove: 1 }],
      undecidedByPool: [{ pool: lao, count: 2 }],
    });
  });

  it('its decisions as CSV: every item, CRLF records, texts defused for spreadsheets', async () => {
    const res = await call(admin, 'GET', `${CAMPAIGNS}/${campaign.id}/decisions.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="access-review-${campaign.id}-decisions.csv"`,
    );
    const records = res.body.split('\r\n');
    expect(records[0]).toBe(
      '\uFEFFPerson,Username,Email,Study Role,Sites,LAOs,Studies,Systems,End Date,Pool,Decision,Defaulted,Comment,Decided By,Decided At,Outcome',
    );
    expect(records).toHaveLength(5);
    expect(records[4]).toBe('');
    const kim = records.find((r) => r.startsWith('Pat Kim,'))!.split(',');
    // Empty texts as the report writes them (PostgreSQL's CSV quotes an empty string).
    expect(kim.slice(3, 6)).toEqual(['Data Manager', '""', lao]);
    expect(kim.slice(9, 14)).toEqual([lao, 'Remove', 'No', "'=Left the LAO", staffUser.username]);
    expect(kim[14]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(records.find((r) => r.startsWith('Pat Lee,'))).toMatch(/,Data Manager,"",.*,No,"","","",""$/);
  });

  it('closes early through the workflow’s update; a second close is refused with its message', async () => {
    const res = await call(admin, 'POST', `${CAMPAIGNS}/${campaign.id}/close`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(campaign.id);
    // The answer shows the close the workflow accepted, never the campaign as still open.
    expect(['CLOSING', 'CLOSED']).toContain(res.json().status);
    await untilStatus(campaign.id, 'CLOSED');
    expect(await campaignRow(campaign.id)).toMatchObject({ closedByUsername: 'admin', removedCount: 1 });
    // The defaults applied at the close (Lee, the LAO staff member's own record) count as undecided.
    const detail = await call(admin, 'GET', `${CAMPAIGNS}/${campaign.id}`);
    expect(detail.json()).toMatchObject({ status: 'CLOSED', itemsTotal: 3, decided: 1, undecided: 2, toRemove: 1 });
    const again = await call(admin, 'POST', `${CAMPAIGNS}/${campaign.id}/close`, {});
    expect(again.statusCode).toBe(422);
    expect(again.json().globalErrors).toEqual([ACCESS_REVIEW_MESSAGES.alreadyClosing]);
    const decide = await call(staff, 'POST', '/rest/secure/access_review/decisions', {
      campaignId: campaign.id,
      filter: {},
      decision: 'KEEP',
    });
    expect(decide.json().globalErrors).toEqual([ACCESS_REVIEW_MESSAGES.campaignClosed]);
  });

  it('cancels through the workflow’s update: nothing removed', async () => {
    const other = await startOpen();
    const item = await api.prisma.accessReviewItem.findFirstOrThrow({ where: { campaignId: other.id } });
    await call(staff, 'POST', '/rest/secure/access_review/decisions', {
      campaignId: other.id,
      filter: { state: 'ALL' },
      decision: 'REMOVE',
      comment: 'Remove all',
    });
    const res = await call(admin, 'POST', `${CAMPAIGNS}/${other.id}/cancel`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('CANCELLED');
    await untilStatus(other.id, 'CANCELLED');
    expect(await campaignRow(other.id)).toMatchObject({ closedByUsername: 'admin', removedCount: 0 });
    expect((await api.prisma.userAccess.findUniqueOrThrow({ where: { id: item.accessId } })).inactive).toBe(false);
  });
});

describe('a recurring review', () => {
  it('creates its Temporal Schedule, whose first run files a campaign; deactivation deletes the schedule', async () => {
    const res = await call(admin, 'POST', SCHEDULES, definition({ everyDays: 30 }));
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json();
    expect(schedule).toMatchObject({
      scheduleId: `access-review-schedule-${schedule.id}`,
      scheduleUrl: `${UI}/namespaces/default/schedules/access-review-schedule-${schedule.id}`,
      everyDays: 30,
      inactive: false,
    });
    const described = await api.deps.temporal.schedule.getHandle(schedule.scheduleId).describe();
    expect(described.spec.intervals?.map((i) => i.every)).toEqual([30 * 86_400_000]);
    expect(described.action).toMatchObject({
      workflowType: ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE,
      taskQueue,
      args: [{ scheduleId: schedule.id }],
    });
    await until(
      async () => (await api.prisma.accessReviewCampaign.count({ where: { scheduleId: schedule.id } })) === 1,
      'the first run’s campaign',
      60_000,
    );
    const filed = await api.prisma.accessReviewCampaign.findFirstOrThrow({ where: { scheduleId: schedule.id } });
    await untilStatus(filed.id, 'OPEN');
    const list = await call(admin, 'GET', SCHEDULES);
    expect(list.json().content.find((s: { id: number }) => s.id === schedule.id)).toMatchObject({ campaigns: 1 });

    const off = await call(admin, 'POST', `${SCHEDULES}/${schedule.id}/deactivate`, {});
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ inactive: true, campaigns: 1 });
    await expect(api.deps.temporal.schedule.getHandle(schedule.scheduleId).describe()).rejects.toBeInstanceOf(
      ScheduleNotFoundError,
    );
    // The campaign it filed goes on.
    expect((await campaignRow(filed.id)).status).toBe('OPEN');
    expect((await call(admin, 'POST', `${SCHEDULES}/${schedule.id}/deactivate`, {})).json().inactive).toBe(true);
  });
});

describe('a leftover Temporal Schedule', () => {
  it('of the id a new recurring review gets (another database on the same Temporal) is converged on the new row', async () => {
    const [{ next }] = await api.prisma.$queryRaw<[{ next: number }]>`
      SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::int AS next
        FROM "AccessReviewSchedule_id_seq"`;
    const scheduleId = `access-review-schedule-${next}`;
    await api.deps.temporal.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '365 days' }] },
      action: { type: 'startWorkflow', workflowType: 'leftover', taskQueue: 'nowhere', args: [] },
      state: { paused: true },
    });
    const res = await call(admin, 'POST', SCHEDULES, definition({ everyDays: 45 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scheduleId).toBe(scheduleId);
    const described = await api.deps.temporal.schedule.getHandle(scheduleId).describe();
    expect(described.spec.intervals?.map((i) => i.every)).toEqual([45 * 86_400_000]);
    expect(described.action).toMatchObject({ workflowType: ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE, taskQueue });
    expect(described.state.paused).toBe(false);
    await until(
      async () => (await api.prisma.accessReviewCampaign.count({ where: { scheduleId: next } })) === 1,
      'the first run’s campaign',
      60_000,
    );
    expect((await call(admin, 'POST', `${SCHEDULES}/${next}/deactivate`, {})).statusCode).toBe(200);
  });
});

describe('Temporal unreachable', () => {
  it('a close answers 503 and changes nothing; a recurring review answers 503 and is not stored', async () => {
    const open = await startOpen();
    const down = await startApi({ TEMPORAL_ADDRESS: '127.0.0.1:1', TEMPORAL_UI_URL: UI });
    try {
      const downAdmin = await signIn(down.app, 'admin');
      const downCall = caller(down.app);
      const close = await downCall(downAdmin, 'POST', `${CAMPAIGNS}/${open.id}/close`, {});
      expect(close.statusCode).toBe(503);
      expect(close.json().message).toMatch(/workflow service is not answering/);
      expect((await campaignRow(open.id)).status).toBe('OPEN');
      const refused = definition({ everyDays: 7 });
      const schedule = await downCall(downAdmin, 'POST', SCHEDULES, refused);
      expect(schedule.statusCode).toBe(503);
      expect(schedule.json().message).toBe(ACCESS_REVIEW_MESSAGES.saveScheduleFailed);
      // By its unique name: other files store schedules beside this one.
      expect(await api.prisma.accessReviewSchedule.count({ where: { name: refused.name } })).toBe(0);
    } finally {
      await down.close();
    }
    // The campaign is still the workflow's: cancelled through the reachable API.
    expect((await call(admin, 'POST', `${CAMPAIGNS}/${open.id}/cancel`, {})).statusCode).toBe(200);
  });
});
