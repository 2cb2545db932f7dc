/**
 * The load-all answer (000 §9: page 1, size 1,000,000) of every list that streams it, byte for byte: each row
 * of the stream is the JSON text that the list's own view writes for that row (JSON.stringify of its wire
 * object: key order, escapes, `2026-12-02T17:13:05.000Z` instants, nulls, nested arrays), on rows with awkward
 * texts (quotes, backslashes, line breaks, tabs, control characters, emoji, U+2028), null fields, instants with
 * 0 ms, role blocks stored out of the contract's order or not in its form, and workflow ids a link must encode.
 * And the rows PostgreSQL writes for each list parse with the contract's wire schema (nothing more, nothing less).
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AccessModRequestSchema,
  LOAD_ALL_SIZE,
  ProfileChangeRequestSchema,
  RegistrationSchema,
  UserListRowSchema,
  UserRequestRowSchema,
} from '@portal/contract';
import type { Prisma } from '@portal/db';
import { queryRows, sqlPoolOf } from '../../api/src/shared/sql';
import { temporalUiOf } from '../../api/src/shared/views';
import { usersListSql, usersRowJson } from '../../api/src/features/users/list-sql';
import { QUEUE_ROW_JSON, QueueRowSchema, userRequestQueueSql } from '../../api/src/features/requests/queue-sql';
import {
  accessModListSql,
  accessModRowJson,
  parseAccessModRows,
} from '../../api/src/features/requests/access-change/list-sql';
import { accessModRequestView } from '../../api/src/features/requests/access-change/view';
import {
  parseProfileChangeRows,
  profileChangeListSql,
  profileChangeRowJson,
} from '../../api/src/features/requests/profile-change/list-sql';
import { profileChangeView } from '../../api/src/features/requests/profile-change/view';
import {
  parseRegistrationRows,
  registrationListSql,
  registrationRowJson,
} from '../../api/src/features/requests/registration/list-sql';
import { registrationView } from '../../api/src/features/requests/registration/view';
import { type RowJson, wireRow } from '../../api/src/shared/row-json';
import { type Session, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let admin: Session;
let base: string;
let subjectId: number;
/** A user with requests filed for others only: their own lists are empty. */
let requesterId: number;

const tag = `lab${crypto.randomBytes(3).toString('hex')}`;
/** Every character JSON.stringify escapes, and some it does not (DEL, é, an emoji, U+2028, a slash). */
const AWK = `Q"u\\e/\n\t\r\b\f\x01\x1f\x7fé😀\u2028`;
/** As short as the 5-character columns need. */
const SHORT = `"\\\t😀`;
const AT0 = new Date('2026-12-02T17:13:05.000Z');
const AT = new Date('2026-12-02T17:13:05.123Z');
const UI = 'http://temporal-ui.test:8233/';

/** Role blocks: in the contract's form, stored out of order with defaults left out, and not in its form. */
const BLOCKS = {
  empty: [],
  canonical: [
    {
      questionNum: 1,
      roleName: 'Site Staff',
      siteCodes: ['A"1', 'é😀'],
      laoIds: [],
      studyNames: [`S\\${AWK}`],
      systemAccessIds: [3, 1],
      accessEndDate: '2027-01-31',
    },
  ],
  scrambled: [
    { accessEndDate: null, extra: { x: 1 }, roleName: 'Data Manager' },
    { systemAccessIds: [2], roleName: ' Trimmed ', questionNum: 0, accessEndDate: '2028-02-29' },
  ],
  invalid: [{ roleName: '' }],
  notArray: { roleName: 'R' },
} as const;

beforeAll(async () => {
  api = await startApi({ TEMPORAL_UI_URL: UI });
  admin = await signIn(api.app, 'admin');
  const subject = await api.prisma.portalUser.create({
    data: {
      username: `${tag}a`,
      firstName: AWK,
      lastName: `${AWK}L`,
      email: `${tag}.a@bytes.portal.test`,
      organizationName: AWK,
      phoneExtension: SHORT,
      userAccesses: {
        create: {
          roleName: 'Site Staff',
          siteCodes: ['A"1', 'é'],
          accessEndDate: new Date(Date.UTC(2026, 11, 31)),
          createdBy: 'test',
          lastModifiedBy: 'test',
        },
      },
    },
  });
  subjectId = subject.id;
  const requester = await api.prisma.portalUser.create({
    data: {
      username: `${tag}b`,
      uuid: `${tag}-uuid`,
      firstName: 'Ré',
      lastName: `Quester "${tag}"`,
      email: `${tag}.b@bytes.portal.test`,
    },
  });
  requesterId = requester.id;
  // Resolved and started: no reconciler, reminder or open-request count of another file takes them up.
  const requests = [
    { workflowId: `${tag}-plain`, accessControls: [], isProxyRequest: false, sysdat: AT0 },
    { workflowId: `${tag}/ä b?&#`, accessControls: BLOCKS.canonical, isProxyRequest: true, sysdat: AT },
    { workflowId: `${tag}-scrambled`, accessControls: BLOCKS.scrambled, isProxyRequest: true, sysdat: AT0 },
  ];
  for (const [i, r] of requests.entries()) {
    await api.prisma.accessModRequest.create({
      data: {
        ...r,
        requestType: 'NEW',
        requestStatus: i % 2 ? 'APPROVED' : 'REJECTED',
        subjectUserId: subject.id,
        requesterUserId: requester.id,
        existingUserAccessId: i === 1 ? 7 : null,
        requesterComments: AWK,
        sysaidTicket: SHORT,
        lastModifiedBy: AWK,
        dchng: AT,
        workflowStartedAt: AT,
      },
    });
    await api.prisma.profileChangeRequest.create({
      data: {
        workflowId: r.workflowId,
        requestStatus: i % 2 ? 'APPROVED' : 'REJECTED',
        portalUserId: subject.id,
        firstName: AWK,
        lastName: 'L',
        email: `${tag}.new@bytes.portal.test`,
        originalFirstName: '',
        originalLastName: AWK,
        originalEmail: subject.email,
        reviewerComments: AWK,
        lastModifiedBy: AWK,
        sysdat: r.sysdat,
        dchng: AT0,
        workflowStartedAt: AT,
      },
    });
  }
  for (const [i, blocks] of Object.values(BLOCKS).entries()) {
    await api.prisma.registration.create({
      data: {
        workflowId: i ? `${tag}-reg ${i}/ü` : `${tag}-reg`,
        registrationStatus: i % 2 ? 'DENIED' : 'PENDING',
        firstName: AWK,
        lastName: `L${tag}`,
        jobTitle: AWK,
        organizationName: AWK,
        phoneNumber: '555-0100',
        phoneExtension: SHORT,
        email: `${tag}.r${i}@bytes.portal.test`,
        accessControls: blocks as Prisma.InputJsonValue,
        requesterComments: AWK,
        portalRoleIds: [2, 1],
        isProxy: true,
        proxyUserId: subject.id,
        proxyName: AWK,
        proxyEmail: i ? null : subject.email,
        personCompletingThisFormFullName: AWK,
        lastModifiedBy: AWK,
        sysdat: i % 2 ? AT0 : AT,
        dchng: AT0,
        workflowStartedAt: AT,
      },
    });
  }
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api?.prisma.registration.deleteMany({ where: { workflowId: { startsWith: tag } } });
  await api?.prisma.accessModRequest.deleteMany({ where: { workflowId: { startsWith: tag } } });
  await api?.prisma.profileChangeRequest.deleteMany({ where: { workflowId: { startsWith: tag } } });
  await api?.prisma.portalUser.deleteMany({ where: { username: { startsWith: tag } } });
  await api?.close();
});

/** The load-all answer of `path` over HTTP, as the bytes sent (decoded as UTF-8 only once, whole). */
async function loadAll(path: string): Promise<string> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${base}${path}${sep}page=1&size=${LOAD_ALL_SIZE}`, {
    headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf },
  });
  const body = Buffer.from(await res.arrayBuffer()).toString('utf8');
  expect(res.status, body.slice(0, 500)).toBe(200);
  expect(res.headers.get('transfer-encoding')).toBe('chunked');
  return body;
}

/** `body` is exactly the envelope of `sort` around `rows`, the JSON texts of the rows as the views write them. */
function expectBytes(body: string, rows: string[], sort: string) {
  const at = body.indexOf(',"content":[');
  expect(JSON.parse(`${body.slice(0, at)}}`)).toEqual({
    totalElements: rows.length,
    totalPages: 1,
    number: 1,
    size: LOAD_ALL_SIZE,
    numberOfElements: rows.length,
    first: true,
    last: true,
    sort,
  });
  expect(body.slice(at)).toBe(`,"content":[${rows.join(',')}]}`);
}

const temporal = () => temporalUiOf(api.cfg);
/** The wire rows as the lists' views made them (the JSON text of each, as the stream wrote them one by one). */
const texts = (rows: unknown[]) => rows.map((r) => JSON.stringify(r));

const usersSql = () =>
  usersListSql(false, { page: 1, size: LOAD_ALL_SIZE, filter: tag }, 'person.lastName', 'asc').rows;
const queueSql = () =>
  userRequestQueueSql('all', { page: 1, size: LOAD_ALL_SIZE, filter: tag }, 'dateSubmitted', 'desc').rows;
const accessModSql = () => accessModListSql({ subjectUserId: subjectId }).rows;
const profileSql = () => profileChangeListSql({ kind: 'user', portalUserId: subjectId }).rows;
const registrationsSql = () =>
  registrationListSql({ kind: 'proxy', proxyUserId: subjectId }, { field: 'sysdat', dir: 'desc' }).rows;

describe('the load-all answer, byte for byte (000 §9)', () => {
  it('of the Users list', async () => {
    const rows = z.array(UserListRowSchema).parse(await queryRows(api.prisma, usersSql(), { prepare: false }));
    expect(rows).toHaveLength(2);
    const body = await loadAll(`/rest/secure/user_management/users?filter=${tag}`);
    expectBytes(body, texts(rows), 'person.lastName,asc');
  });

  it('of the reviewer queue', async () => {
    const rows = z
      .array(QueueRowSchema)
      .parse(await queryRows(api.prisma, queueSql()))
      .map((r) => ({
        id: r.id,
        userRequestType: r.userRequestType,
        requestType: r.requestType,
        requestStatus: r.requestStatus,
        dateSubmitted: r.sysdat.toISOString(),
        sysaidTicket: r.sysaidTicket,
        lastModified: r.dchng.toISOString(),
        lastModifiedBy: r.lastModifiedBy,
        firstName: r.firstName,
        lastName: r.lastName,
        email: r.email,
        organizationName: r.organizationName,
      }));
    expect(rows.length).toBeGreaterThanOrEqual(6);
    const body = await loadAll(`/rest/secure/user_management/user_requests/all?filter=${tag}`);
    expectBytes(body, texts(rows), 'dateSubmitted,desc');
  });

  it("of one user's access-modification requests, and of every user's", async () => {
    const rows = parseAccessModRows(await queryRows(api.prisma, accessModSql())).map((r) =>
      accessModRequestView(r, temporal()),
    );
    expect(rows).toHaveLength(3);
    expectBytes(await loadAll(`/rest/secure/user_access_mod_request/user/${subjectId}`), texts(rows), 'sysdat,desc');
    expectOurs(await loadAll('/rest/secure/user_access_mod_request/'), rows);
  });

  it("of one user's profile-change requests, and of every user's", async () => {
    const rows = parseProfileChangeRows(await queryRows(api.prisma, profileSql())).map((r) =>
      profileChangeView(r, temporal()),
    );
    expect(rows).toHaveLength(3);
    expectBytes(
      await loadAll(`/rest/secure/ldap_user_profile_mod_request/user/${subjectId}`),
      texts(rows),
      'sysdat,desc',
    );
    expectOurs(await loadAll('/rest/secure/ldap_user_profile_mod_request/status/all'), rows);
    // No rows: the envelope around an empty array.
    expectBytes(await loadAll(`/rest/secure/ldap_user_profile_mod_request/user/${requesterId}`), [], 'sysdat,desc');
  });

  it("of a proxy's registration history, and of the registrations of every status", async () => {
    const rows = parseRegistrationRows(await queryRows(api.prisma, registrationsSql())).map((r) =>
      registrationView(r, api.deps),
    );
    expect(rows).toHaveLength(5);
    // Not in the contract's form: listed without role blocks, as the one registration's read shows them.
    expect(rows.filter((r) => r.accessControls.length === 0)).toHaveLength(3);
    expectBytes(
      await loadAll(`/rest/secure/user_management/user_registration/proxy/${subjectId}`),
      texts(rows),
      'sysdat,desc',
    );
    expectOurs(await loadAll('/rest/secure/user_registration/status/all'), rows);
  });
});

describe('the values of a load-all statement, written into its COPY', () => {
  it('select as the bound values do: the queue filtered by a status name, the Users list with exclusions', async () => {
    const queue = JSON.parse(await loadAll(`/rest/secure/user_management/user_requests/all?filter=rejected`)) as {
      totalElements: number;
      content: Array<{ id: number; requestStatus: string }>;
    };
    expect(queue.content).toHaveLength(queue.totalElements);
    const rejected = await api.prisma.accessModRequest.findMany({
      where: { workflowId: { startsWith: tag }, requestStatus: 'REJECTED' },
    });
    expect(rejected).toHaveLength(2);
    const listed = new Set(queue.content.map((r) => r.id));
    expect(rejected.filter((r) => !listed.has(r.id))).toEqual([]);
    // An array of texts with a quote and a non-ASCII character: the subject holds A"1.
    const sites = encodeURIComponent('A"1,é,X\\Y');
    const users = JSON.parse(
      await loadAll(`/rest/secure/user_management/users?filter=${tag}&excludeSites=${sites}&excludeRoles=Nobody`),
    ) as { content: Array<{ username: string }> };
    expect(users.content.map((u) => u.username)).toEqual([`${tag}b`]);
  });
});

/**
 * A list other files write to beside this one: the answer is JSON as JSON.stringify writes it, and this file's
 * rows are in it as their views write them, in their order.
 */
function expectOurs(body: string, rows: Array<{ id: number }>) {
  const page = JSON.parse(body) as { content: Array<{ id: number }> };
  expect(JSON.stringify(page)).toBe(body);
  const ids = new Set(rows.map((r) => r.id));
  expect(texts(page.content.filter((r) => ids.has(r.id)))).toEqual(texts(rows));
}

describe("the rows PostgreSQL writes for each list's load-all answer", () => {
  const lists: Array<[string, () => RowJson, () => Prisma.Sql, z.ZodObject]> = [
    ['users', () => usersRowJson, usersSql, UserListRowSchema],
    ['queue', () => QUEUE_ROW_JSON, queueSql, UserRequestRowSchema],
    ['access-modification requests', () => accessModRowJson(temporal()), accessModSql, AccessModRequestSchema],
    ['profile-change requests', () => profileChangeRowJson(temporal()), profileSql, ProfileChangeRequestSchema],
    ['registrations', () => registrationRowJson(temporal()), registrationsSql, RegistrationSchema],
  ];
  it.each(lists)('parse with the contract schema of the wire row: %s', async (_, rowJson, sql, schema) => {
    const json = rowJson();
    const rows = sql();
    const { rows: written } = await sqlPoolOf(api.prisma)!.query<{ j: string }>(
      `SELECT ${json.sql} AS j FROM (${rows.text}) t`,
      rows.values.map((v) => (v instanceof Date ? v.toISOString() : v)),
    );
    expect(written.length).toBeGreaterThan(0);
    for (const { j } of written) {
      const row = wireRow(json, j);
      expect(schema.strict().parse(row)).toEqual(row);
    }
  });
});
