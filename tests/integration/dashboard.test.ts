/**
 * The dashboard's calls (000 §2 /app/dashboard, §6 dashboard visibility, §7 Visualizations; issue 11
 * Dashboard) against real PostgreSQL: the summary per permission, the reviewers' open queues by kind, status
 * and age (READ_USERS; 403 for a USER), the requester's open requests and latest decisions, and the two
 * Tableau calls, hidden (404) without a configured server and served through the trusted-ticket stand-in
 * (tests/support/tableau-stand-in.ts) with one.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardQueues, DashboardRequests, DashboardSummary } from '@portal/contract';
import { type TableauStandIn, startTableauStandIn } from '../support/tableau-stand-in';
import { demoRequestParts } from './fixtures';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let admin: Session;
let reviewer: Session;
let readonly: Session;
let user: Session;

const tag = crypto.randomBytes(3).toString('hex');
const DAY = 86_400_000;
const get = (s: Session | null, url: string) => caller(api.app)(s, 'GET', url);

beforeAll(async () => {
  api = await startApi();
  [admin, reviewer, readonly, user] = await Promise.all([
    signIn(api.app, 'admin'),
    signIn(api.app, 'reviewer'),
    signIn(api.app, 'readonly'),
    signIn(api.app, 'user'),
  ]);
});
afterAll(async () => {
  await api?.close();
});

/** A projection row only (no workflow runs for it; marked started so no reconciler picks it up). */
async function accessRequest(status: 'NEW' | 'PENDING_REVIEW' | 'APPROVED' | 'REJECTED', sysdat: Date, dchng: Date) {
  const { user: subject, block } = await demoRequestParts(api.prisma, 'user');
  return api.prisma.accessModRequest.create({
    data: {
      workflowId: `dashboard-test-${tag}-${crypto.randomBytes(4).toString('hex')}`,
      requestType: 'NEW',
      requestStatus: status,
      subjectUserId: subject.id,
      requesterUserId: subject.id,
      accessControls: [block],
      lastModifiedBy: 'dashboard-test',
      sysdat,
      dchng,
      workflowStartedAt: new Date(),
    },
  });
}

describe('GET /rest/secure/dashboard/summary', () => {
  it('names the highest permission, what it grants and the sections it shows, per persona', async () => {
    const summary = async (s: Session) => {
      const res = await get(s, '/rest/secure/dashboard/summary');
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DashboardSummary>();
    };
    const a = await summary(admin);
    expect(a.highestPermission).toBe('ADMIN');
    expect(a.sections).toEqual({ ownRequests: true, queues: true });
    expect(a.grants[0]).toMatch(/^All functionality/);
    expect((await summary(reviewer)).highestPermission).toBe('WRITE_USERS');
    const r = await summary(readonly);
    expect(r.highestPermission).toBe('READ_USERS');
    expect(r.grants).toHaveLength(3); // READ_USERS also gives USER and SET_OWN_PASSWORD (000 §6)
    const u = await summary(user);
    expect(u).toMatchObject({ highestPermission: 'USER', sections: { ownRequests: true, queues: false } });
    // No Tableau server configured: no visualizations.
    expect(u.visualizationIds).toEqual([]);
    expect((await get(null, '/rest/secure/dashboard/summary')).statusCode).toBe(401);
  });
});

describe('GET /rest/secure/dashboard/queues and /requests', () => {
  it('groups open requests by kind, status and age for reviewers, and refuses a USER', async () => {
    const old = new Date('2001-01-01T00:00:00Z');
    const fresh = new Date(Date.now() - 2 * 3_600_000);
    await accessRequest('PENDING_REVIEW', old, old);
    await accessRequest('PENDING_REVIEW', new Date(old.getTime() + DAY), old);
    await accessRequest('NEW', fresh, fresh);

    const res = await get(reviewer, '/rest/secure/dashboard/queues');
    expect(res.statusCode, res.body).toBe(200);
    const queues = res.json<DashboardQueues>();
    const group = (status: string, age: string) =>
      queues.groups.find((g) => g.userRequestType === 'ACCESS_CHANGE' && g.requestStatus === status && g.age === age);
    expect(group('PENDING_REVIEW', 'OVER_7_DAYS')?.count).toBeGreaterThanOrEqual(2);
    expect(group('PENDING_REVIEW', 'OVER_7_DAYS')?.oldest).toBe(old.toISOString());
    expect(group('NEW', 'UNDER_1_DAY')?.count).toBeGreaterThanOrEqual(1);
    expect(queues.total).toBe(queues.groups.reduce((n, g) => n + g.count, 0));
    // Only unresolved requests are counted.
    expect(queues.groups.some((g) => ['APPROVED', 'REJECTED', 'DENIED'].includes(g.requestStatus))).toBe(false);

    expect((await get(readonly, '/rest/secure/dashboard/queues')).statusCode).toBe(200);
    const denied = await get(user, '/rest/secure/dashboard/queues');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'You are not authorized to view this page' });
  });

  it("lists the user's own open requests and latest decisions, and nobody else's", async () => {
    const now = Date.now();
    const open = await accessRequest('PENDING_REVIEW', new Date(now - DAY), new Date(now - DAY));
    // Decided in the future: the newest decision whatever other tests leave behind.
    const decided = await accessRequest('APPROVED', new Date(now - 2 * DAY), new Date(now + DAY));
    // A resolved profile-change request of the user (resolved, so no open request blocks other tests).
    const { user: me } = await demoRequestParts(api.prisma, 'user');
    const profile = await api.prisma.profileChangeRequest.create({
      data: {
        workflowId: `dashboard-test-pc-${tag}`,
        requestStatus: 'REJECTED',
        portalUserId: me.id,
        firstName: me.firstName,
        lastName: 'Renamed',
        email: me.email,
        originalFirstName: me.firstName,
        originalLastName: me.lastName,
        originalEmail: me.email,
        lastModifiedBy: 'dashboard-test',
        sysdat: new Date(now - DAY),
        dchng: new Date(now + 2 * DAY),
        workflowStartedAt: new Date(),
      },
    });
    const res = await get(user, '/rest/secure/dashboard/requests');
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json<DashboardRequests>();
    expect(mine.decisions[0]).toMatchObject({
      userRequestType: 'PROFILE_CHANGE',
      id: profile.id,
      requestStatus: 'REJECTED',
    });
    const openRow = mine.open.find((r) => r.id === open.id && r.userRequestType === 'ACCESS_CHANGE');
    expect(openRow).toMatchObject({ requestStatus: 'PENDING_REVIEW', requestType: 'NEW' });
    expect(openRow?.dateSubmitted).toBe(new Date(now - DAY).toISOString());
    expect(mine.decisions[1]).toMatchObject({ id: decided.id, requestStatus: 'APPROVED' });
    expect(mine.decisions.length).toBeLessThanOrEqual(5);
    expect(mine.open.every((r) => !['APPROVED', 'REJECTED', 'DENIED'].includes(r.requestStatus))).toBe(true);

    // The administrator is neither subject nor requester of these.
    const other = (await get(admin, '/rest/secure/dashboard/requests')).json<DashboardRequests>();
    expect(
      [...other.open, ...other.decisions].some(
        (r) => [open.id, decided.id].includes(r.id) && r.userRequestType === 'ACCESS_CHANGE',
      ),
    ).toBe(false);
    expect(other.decisions.some((r) => r.userRequestType === 'PROFILE_CHANGE' && r.id === profile.id)).toBe(false);
    expect((await get(null, '/rest/secure/dashboard/requests')).statusCode).toBe(401);
  });

  it('brings the open approval stage of an access-change request, and none for a request without one', async () => {
    const now = Date.now();
    const staged = await accessRequest('PENDING_REVIEW', new Date(now - 60_000), new Date(now - 60_000));
    const plain = await accessRequest('PENDING_REVIEW', new Date(now - 120_000), new Date(now - 120_000));
    const planned = { approvers: 'LAO_STAFF', deadlineDays: 5, reminderDays: 1, escalateTo: 'USER_SUPPORT' };
    // Stage 2 of 2, for the approvers of no study: in nobody's 'Awaiting my approval'.
    await api.prisma.accessModRequest.update({
      where: { id: staged.id },
      data: {
        approvalPlan: {
          stages: [planned, { ...planned, approvers: 'STUDY_APPROVERS' }],
          laoIds: [],
          studyNames: [],
        },
        approvalStage: 2,
        approvalGroup: 'STUDY_APPROVERS',
      },
    });
    try {
      const mine = (await get(user, '/rest/secure/dashboard/requests')).json<DashboardRequests>();
      const row = (id: number) => mine.open.find((r) => r.id === id && r.userRequestType === 'ACCESS_CHANGE');
      expect(row(staged.id)).toMatchObject({
        requestStatus: 'PENDING_REVIEW',
        openStage: { stage: 2, stages: 2, group: 'STUDY_APPROVERS' },
      });
      expect(row(plain.id)).toBeDefined();
      expect(row(plain.id)).not.toHaveProperty('openStage');
      // Still newest first once joined.
      const ids = mine.open.map((r) => r.dateSubmitted);
      expect([...ids].sort().reverse()).toEqual(ids);
    } finally {
      // Resolved: no open request of the demo user left behind by this case.
      await api.prisma.accessModRequest.updateMany({
        where: { id: { in: [staged.id, plain.id] } },
        data: { requestStatus: 'REJECTED', approvalStage: null, approvalGroup: null },
      });
    }
  });
});

describe('Tableau (000 §7 Visualizations)', () => {
  it('answers 404 for both calls when no Tableau server is configured', async () => {
    expect((await get(user, '/rest/secure/tableau/token')).statusCode).toBe(404);
    expect((await get(user, '/rest/secure/tableau/visualization/1')).statusCode).toBe(404);
  });

  describe('with a configured server (the trusted-ticket stand-in)', () => {
    let tableau: TableauStandIn;
    let configured: TestApi;
    let cUser: Session;
    let cAdmin: Session;

    beforeAll(async () => {
      tableau = await startTableauStandIn(['user', 'admin']);
      configured = await startApi({
        TABLEAU_SERVER_URL: tableau.url,
        TABLEAU_SITE: 'network',
        TABLEAU_VISUALIZATIONS: JSON.stringify([
          { id: 1, filePath: 'Requests/Overview', title: 'Requests overview', tableauSite: 'network' },
          { id: 2, filePath: 'Admin/Load', title: 'Portal load', permission: 'ADMIN' },
        ]),
      });
      [cUser, cAdmin] = await Promise.all([signIn(configured.app, 'user'), signIn(configured.app, 'admin')]);
    });
    afterAll(async () => {
      await configured?.close();
      await tableau?.close();
    });
    const cGet = (s: Session, url: string) => caller(configured.app)(s, 'GET', url);

    it('lists the visualizations per permission, describes one, and fetches a trusted ticket', async () => {
      expect((await cGet(cUser, '/rest/secure/dashboard/summary')).json().visualizationIds).toEqual([1]);
      expect((await cGet(cAdmin, '/rest/secure/dashboard/summary')).json().visualizationIds).toEqual([1, 2]);

      const viz = await cGet(cUser, '/rest/secure/tableau/visualization/1');
      expect(viz.statusCode, viz.body).toBe(200);
      expect(viz.json()).toEqual({
        id: 1,
        filePath: 'Requests/Overview',
        title: 'Requests overview',
        description: '',
        tableauSite: 'network',
      });
      // Not the user's to see, and unknown: the same 404.
      expect((await cGet(cUser, '/rest/secure/tableau/visualization/2')).statusCode).toBe(404);
      expect((await cGet(cUser, '/rest/secure/tableau/visualization/9')).statusCode).toBe(404);
      expect((await cGet(cUser, '/rest/secure/tableau/visualization/x')).statusCode).toBe(422);

      const token = await cGet(cUser, '/rest/secure/tableau/token');
      expect(token.statusCode, token.body).toBe(200);
      const body = token.json();
      expect(body).toMatchObject({ targetSite: 'network', tableauExternalUrl: tableau.url });
      expect(body.tableauInternalIp).toBe(new URL(tableau.url).host);
      expect(tableau.requests.at(-1)).toEqual({ username: 'user', targetSite: 'network' });
      expect(tableau.tickets.has(body.tableauToken)).toBe(true);

      // The ticket opens the view once, on the site it was issued for.
      const view = `${tableau.url}/trusted/${encodeURIComponent(body.tableauToken)}/t/network/views/Requests/Overview`;
      expect((await fetch(view)).status).toBe(200);
      expect((await fetch(view)).status).toBe(401);

      const other = await cGet(cUser, '/rest/secure/tableau/token?targetSite=research');
      expect(other.json().targetSite).toBe('research');
      expect(tableau.requests.at(-1)).toEqual({ username: 'user', targetSite: 'research' });
      expect((await cGet(cUser, '/rest/secure/tableau/token?targetSite=bad%20site')).statusCode).toBe(422);

      // The frame may load from the Tableau server (CSP).
      const page = await configured.app.inject({ method: 'GET', url: '/rest/public/password_validation/rules' });
      expect(page.headers['content-security-policy']).toContain(`frame-src 'self' ${tableau.url}`);
    });

    it('answers 503 when Tableau refuses the ticket or cannot be reached', async () => {
      const readonlyOnConfigured = await signIn(configured.app, 'readonly');
      const refused = await cGet(readonlyOnConfigured, '/rest/secure/tableau/token');
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ message: 'Unable to reach the analytics server.' });

      const down = await startApi({ TABLEAU_SERVER_URL: 'http://127.0.0.1:9' });
      try {
        const s = await signIn(down.app, 'user');
        expect((await caller(down.app)(s, 'GET', '/rest/secure/tableau/token')).statusCode).toBe(503);
      } finally {
        await down.close();
      }
    });
  });
});
