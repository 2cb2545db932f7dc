/**
 * Own access requests and the access-modification report against the real stack (001 §2.5, §2.11, §5, §7,
 * §8): the filing rules with their field-error keys (one per block, indexed as sent), the server's own 304 for
 * a CHANGE that changes nothing, REQUEST_IN_PROGRESS for a second request on an open study role, the three
 * list calls with their permissions, and the CSV report (rows, filters, 403, 422). No worker runs: filing
 * only starts the request's workflow, and nothing here reviews it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REPORT_COLUMNS, GLOBAL_ERRORS, MESSAGES, type AccessControl } from '@portal/contract';
import { parseCsv } from '../support/csv';
import { buildTestApp, call, createTestUser, signIn, type Session, type TestApp, type TestUser } from './auth-helpers';

const FILE = '/rest/secure/user_access_mod_request';
const REPORT = '/rest/secure/user_access_mod_request/report';

let t: TestApp;
let requester: TestUser;
let mine: Session;
let reader: Session;
let fixedId: number;
let pharmacistAccessId: number;
let proxyRowId: number;

const block = (roleName: string, extra: Partial<AccessControl> = {}): AccessControl => ({
  questionNum: 1,
  roleName,
  siteCodes: [],
  laoIds: [],
  studyNames: [],
  systemAccessIds: [fixedId],
  ...extra,
});

beforeAll(async () => {
  t = await buildTestApp();
  fixedId = (await t.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
  requester = await createTestUser(t, 'ownreq');
  const held = await t.prisma.userAccess.create({
    data: {
      portalUserId: requester.user.id,
      roleName: 'Research Pharmacist',
      siteCodes: ['MA036'],
      systemAccessIds: [fixedId],
      createdBy: 'test',
      lastModifiedBy: 'test',
    },
  });
  pharmacistAccessId = held.id;
  mine = await signIn(t.app, requester.username, requester.password);
  reader = await signIn(t.app, 'readonly');
  // A proxy-filed request, as the proxy batch stores it, for the report's proxyRequests filter.
  const proxy = await t.prisma.portalUser.findUniqueOrThrow({ where: { username: 'laostaff' } });
  const row = await t.prisma.accessModRequest.create({
    data: {
      workflowId: `access-change-report-test-${Date.now()}`,
      requestType: 'NEW',
      subjectUserId: requester.user.id,
      requesterUserId: proxy.id,
      isProxyRequest: true,
      accessControls: [block('Data Manager', { studyNames: ['=HYPERLINK("x")'] })],
      requesterComments: '=cmd|calc',
      lastModifiedBy: 'laostaff',
      // Resolved, so it does not count as an open request of the study role.
      requestStatus: 'REJECTED',
      workflowStartedAt: new Date(),
    },
  });
  proxyRowId = row.id;
});

afterAll(async () => {
  await t?.close();
});

describe('filing own requests (001 §2.5, §5, §7)', () => {
  it('answers each broken block rule under its own key, indexed by block', async () => {
    const res = await call(t.app, mine, 'POST', FILE, {
      portalUserId: requester.user.id,
      requestType: 'NEW',
      accessControls: [
        block('Data Manager', { studyNames: [] }),
        block('LAO Staff', { siteCodes: ['MA036'], systemAccessIds: [] }),
        block('Data Manager', { studyNames: ['nope'] }),
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      fieldErrors: {
        'accessControls[0].studyNames': [MESSAGES.access.atLeastOneStudy],
        'accessControls[1].siteCodes': ['invalid'],
        'accessControls[1].systemAccessIds': [MESSAGES.access.fixedSystemRequired],
        'accessControls[2].roleName': ['unique'],
        'accessControls[2].studyNames': ['unknown'],
      },
      globalErrors: [],
    });
  });

  it('answers a CHANGE that changes nothing and says nothing with 304, and files it once it has a comment', async () => {
    const same = block('Research Pharmacist', { siteCodes: ['MA036'] });
    const body = { portalUserId: requester.user.id, requestType: 'CHANGE', accessControls: [same] };
    const unchanged = await call(t.app, mine, 'POST', FILE, { ...body, requesterComments: '   ' });
    expect(unchanged.statusCode).toBe(304);
    expect(await t.prisma.accessModRequest.count({ where: { subjectUserId: requester.user.id } })).toBe(1);

    const commented = await call(t.app, mine, 'POST', FILE, { ...body, requesterComments: 'Please confirm' });
    expect(commented.statusCode).toBe(200);
    expect(commented.json()).toMatchObject({ requestType: 'CHANGE', requestStatus: 'NEW', isProxyRequest: false });
  });

  it('refuses a second request for a study role with an open one (REQUEST_IN_PROGRESS), in any type', async () => {
    const removal = await call(t.app, mine, 'POST', FILE, {
      portalUserId: requester.user.id,
      requestType: 'REMOVAL',
      accessControls: [block('Research Pharmacist', { siteCodes: ['MA036'] })],
    });
    expect(removal.statusCode).toBe(422);
    expect(removal.json()).toEqual({ fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.requestInProgress] });
    // The held record the CHANGE names is still the one the browser links to.
    expect(await t.prisma.userAccess.count({ where: { id: pharmacistAccessId, inactive: false } })).toBe(1);
  });

  it("refuses a proxy's request for a deactivated user (422 portalUserId), as the batch does, and stores nothing", async () => {
    const subject = await createTestUser(t, 'inactsubj');
    await t.prisma.userAccess.create({
      data: {
        portalUserId: subject.user.id,
        roleName: 'Research Pharmacist',
        siteCodes: ['MA036'],
        systemAccessIds: [fixedId],
        createdBy: 'test',
        lastModifiedBy: 'test',
      },
    });
    const proxy = await signIn(t.app, 'laostaff');
    const body = {
      portalUserId: subject.user.id,
      requestType: 'CHANGE',
      accessControls: [block('Research Pharmacist', { siteCodes: ['MA036'] })],
      requesterComments: 'Please confirm',
    };
    await t.prisma.portalUser.update({ where: { id: subject.user.id }, data: { inactive: true } });
    const refused = await call(t.app, proxy, 'POST', FILE, body);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toEqual({ fieldErrors: { portalUserId: ['unknown'] }, globalErrors: [] });
    expect(await t.prisma.accessModRequest.count({ where: { subjectUserId: subject.user.id } })).toBe(0);

    await t.prisma.portalUser.update({ where: { id: subject.user.id }, data: { inactive: false } });
    const filed = await call(t.app, proxy, 'POST', FILE, body);
    expect(filed.statusCode, filed.body).toBe(200);
    expect(filed.json()).toMatchObject({ requestType: 'CHANGE', isProxyRequest: true });
  });
});

describe('the reference data a filing is checked against (issue 24: kept in memory, dropped on change)', () => {
  it('accepts a study role made a moment ago elsewhere, and refuses one deactivated a moment ago', async () => {
    const person = await createTestUser(t, 'refsets');
    const session = await signIn(t.app, person.username, person.password);
    const file = (roleName: string) =>
      call(t.app, session, 'POST', FILE, {
        portalUserId: person.user.id,
        requestType: 'NEW',
        accessControls: [block(roleName)],
      });
    const stamp = Date.now();
    const fresh = `Fresh Role ${stamp}`;
    const gone = `Gone Role ${stamp}`;
    await t.prisma.studyRole.create({ data: { roleName: gone, description: 'deactivated below' } });
    try {
      // A refusal (unknown role) loads the sets and keeps them.
      expect((await file(`No Such Role ${stamp}`)).statusCode).toBe(422);
      // Written straight to PostgreSQL, as another API process or a data load does: the kept sets do not
      // know the new role yet (its notification may still be on the way), yet it is never refused.
      await t.prisma.studyRole.create({ data: { roleName: fresh, description: 'made a moment ago' } });
      const filed = await file(fresh);
      expect(filed.statusCode, filed.body).toBe(200);
      expect(filed.json()).toMatchObject({ requestStatus: 'NEW', accessControls: [{ roleName: fresh }] });
      // Deactivated a moment ago: refused at once, by the filing's own read if the kept sets still hold it.
      await t.prisma.studyRole.update({ where: { roleName: gone }, data: { inactive: true } });
      const refused = await file(gone);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().fieldErrors).toEqual({ 'accessControls[0].roleName': ['unknown'] });
    } finally {
      await t.prisma.studyRole.deleteMany({ where: { roleName: { in: [fresh, gone] } } });
    }
  });
});

describe('lists of access-modification requests (001 §7)', () => {
  it("answers one user's requests to that user and to READ_USERS, like an unknown user to anyone else", async () => {
    const own = await call(t.app, mine, 'GET', `${FILE}/user/${requester.user.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ totalElements: 2, number: 1, size: 300, first: true, last: true });
    const ids = own.json().content.map((r: { id: number }) => r.id);
    expect(ids).toContain(proxyRowId);

    const staff = await call(t.app, reader, 'GET', `${FILE}/user/${requester.user.id}?page=1&size=1`);
    expect(staff.statusCode).toBe(200);
    expect(staff.json()).toMatchObject({ totalElements: 2, numberOfElements: 1, totalPages: 2 });

    const someone = await createTestUser(t, 'other');
    const other = await signIn(t.app, someone.username, someone.password);
    for (const url of [`${FILE}/user/${requester.user.id}`, `${FILE}/user/2147483000`]) {
      const res = await call(t.app, url.endsWith('2147483000') ? reader : other, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: MESSAGES.access.loadRequestsFailed });
    }
    const bad = await call(t.app, reader, 'GET', `${FILE}/user/abc`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ userId: ['invalid'] });
  });

  it('answers all requests and those of one status to READ_USERS only', async () => {
    const all = await call(t.app, reader, 'GET', `${FILE}/`);
    expect(all.statusCode).toBe(200);
    expect(all.json().totalElements).toBeGreaterThanOrEqual(2);
    const rejected = await call(t.app, reader, 'GET', `${FILE}/status/REJECTED`);
    expect(rejected.statusCode).toBe(200);
    const statuses = new Set(rejected.json().content.map((r: { requestStatus: string }) => r.requestStatus));
    expect([...statuses]).toEqual(['REJECTED']);
    expect(rejected.json().content.map((r: { id: number }) => r.id)).toContain(proxyRowId);

    const badStatus = await call(t.app, reader, 'GET', `${FILE}/status/OPEN`);
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().fieldErrors).toEqual({ status: ['invalid'] });
    for (const url of [`${FILE}/`, `${FILE}/status/NEW`]) {
      const denied = await call(t.app, mine, 'GET', url);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ message: MESSAGES.signIn.notAuthorized });
    }
  });
});

describe('the access-modification report (001 §2.11, §7, §8)', () => {
  const rowsOf = (body: string) => {
    expect(body.charCodeAt(0)).toBe(0xfeff);
    const [header, ...rows] = parseCsv(body);
    expect(header).toEqual([...ACCESS_REPORT_COLUMNS]);
    return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])) as Record<string, string>);
  };

  it('answers a CSV file, one row per request, named in its content-disposition', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await call(t.app, reader, 'GET', `${REPORT}?startDate=${today}&endDate=${today}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="access-modification-requests_${today}_${today}.csv"`,
    );
    const rows = rowsOf(res.body).filter((r) => r['User Email'] === requester.email);
    expect(rows).toHaveLength(2);
    const self = rows.find((r) => r['Submitted By'] === 'Self')!;
    expect(self).toMatchObject({
      'Request Type': 'Access Change',
      'Request Status': 'New',
      'User ID': String(requester.user.id),
      'User Name': `Test ownreq`,
      'Proxy User ID': '',
      'Study Role(s)': 'Research Pharmacist',
      AOs: 'MA036',
      LAOs: '---',
      Systems: 'Portal Gateway',
      'Requester Comments': 'Please confirm',
    });
    const proxied = rows.find((r) => r['Request ID'] === String(proxyRowId))!;
    expect(proxied).toMatchObject({
      'Submitted By': 'Morgan Liaison',
      'Proxy Email': 'laostaff@portal.test',
      'Request Status': 'Rejected',
      // Formula-looking cells are defused for spreadsheets.
      'Study(s)': `'=HYPERLINK("x")`,
      'Requester Comments': "'=cmd|calc",
    });
  });

  it('keeps proxy-filed requests only (true), self-filed only (false) or all (absent)', async () => {
    const ids = async (query: string) => {
      const res = await call(t.app, reader, 'GET', `${REPORT}${query}`);
      expect(res.statusCode).toBe(200);
      return { rows: rowsOf(res.body), disposition: res.headers['content-disposition'] };
    };
    const proxy = await ids('?proxyRequests=true');
    expect(proxy.rows.every((r) => r['Submitted By'] !== 'Self')).toBe(true);
    expect(proxy.rows.map((r) => r['Request ID'])).toContain(String(proxyRowId));
    expect(proxy.disposition).toContain('access-modification-requests_all_all_proxy.csv');
    const self = await ids('?proxyRequests=false');
    expect(self.rows.every((r) => r['Submitted By'] === 'Self')).toBe(true);
    expect(self.rows.some((r) => r['User Email'] === requester.email)).toBe(true);
    const all = await ids('');
    expect(all.rows.length).toBe(proxy.rows.length + self.rows.length);
    const future = await ids('?startDate=2999-01-01');
    expect(future.rows).toEqual([]);
  });

  it('refuses callers without READ_USERS (403) and a bad query (422 fieldErrors)', async () => {
    const denied = await call(t.app, mine, 'GET', REPORT);
    expect(denied.statusCode).toBe(403);
    const backwards = await call(t.app, reader, 'GET', `${REPORT}?startDate=2026-05-02&endDate=2026-05-01`);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().fieldErrors).toEqual({ startDate: ['afterEndDate'], endDate: ['beforeStartDate'] });
    const bad = await call(t.app, reader, 'GET', `${REPORT}?startDate=2026-02-30&proxyRequests=maybe`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ startDate: ['invalid'], proxyRequests: ['invalid'] });
  });
});
