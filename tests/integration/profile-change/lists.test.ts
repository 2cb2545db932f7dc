/**
 * The profile-change lists (001 §7: GET /, /status/{status}, /user, /user/{userId}) beyond one screen: the
 * page envelope with its total (000 §3 Page info), the default fetch of page 1 of 300 (000 §9), any page of
 * up to 1,000 rows, and the load-all call (page 1, size 1,000,000) answered whole and streamed, at more rows
 * than any one page holds. Nothing is cut without the answer saying so.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_ALL_SIZE, type ProfileChangeRequest } from '@portal/contract';
import { type Session, caller, signIn, startApi, type TestApi } from '../harness';
import { BASE, type Requester, newRequester } from './support';

let api: TestApi;
let admin: Session;
let subject: Requester;
/** More than the 1,000 the lists once stopped at. */
const MANY = 1_250;

beforeAll(async () => {
  api = await startApi();
  admin = await signIn(api.app, 'admin');
  subject = await newRequester(api, 'pclists');
  const id = subject.user.user.id;
  // Written straight into PostgreSQL (no workflows): one second apart, so newest first is a known order.
  const start = Date.UTC(2026, 0, 1);
  await api.prisma.profileChangeRequest.createMany({
    data: Array.from({ length: MANY }, (_, i) => ({
      workflowId: `pclists-${id}-${i}`,
      portalUserId: id,
      requestStatus: i % 5 === 0 ? ('APPROVED' as const) : ('NEW' as const),
      firstName: `F${i}`,
      lastName: `L${i}`,
      email: `pc${i}.${id}@lists.portal.test`,
      originalFirstName: 'Old',
      originalLastName: 'Name',
      originalEmail: `old.${id}@lists.portal.test`,
      lastModifiedBy: 'test',
      sysdat: new Date(start + i * 1000),
      dchng: new Date(start + i * 1000),
      // Marked started, so that no reconciler starts workflows for these rows.
      workflowStartedAt: new Date(),
    })),
  });
});

afterAll(async () => {
  await api?.prisma.profileChangeRequest.deleteMany({ where: { workflowId: { startsWith: 'pclists-' } } });
  await api?.close();
});

/** The subject's inserted rows' first names, newest first. */
const newestFirst = (keep: (i: number) => boolean = () => true) =>
  Array.from({ length: MANY }, (_, i) => MANY - 1 - i)
    .filter(keep)
    .map((i) => `F${i}`);
const ours = (rows: ProfileChangeRequest[]) =>
  rows.filter((r) => r.portalUserId === subject.user.user.id).map((r) => r.firstName);

/** GET `path` through a real socket, as a browser reads a streamed answer; @returns the parsed page and chunks. */
async function loadAll(session: Session, path: string) {
  const { port } = api.app.server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}?page=1&size=${LOAD_ALL_SIZE}`, {
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
  });
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  // Streamed: no length known up front.
  expect(res.headers.get('content-length')).toBeNull();
  expect(res.headers.get('transfer-encoding')).toBe('chunked');
  return (await res.json()) as { content: ProfileChangeRequest[]; [k: string]: unknown };
}

describe('the profile-change lists page and total their rows', () => {
  it('answer page 1 of 300 by default, with the total, and any later page', async () => {
    const call = caller(api.app);
    const first = await call(admin, 'GET', `${BASE}/user/${subject.user.user.id}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      totalElements: MANY,
      numberOfElements: 300,
      size: 300,
      number: 1,
      totalPages: Math.ceil(MANY / 300),
      first: true,
      last: false,
      sort: 'sysdat,desc',
    });
    expect(ours(first.json().content)).toEqual(newestFirst().slice(0, 300));
    const second = await call(subject.session, 'GET', `${BASE}/user?page=2&size=1000`);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ totalElements: MANY, numberOfElements: MANY - 1000, last: true });
    expect(ours(second.json().content)).toEqual(newestFirst().slice(1000));
  });

  it('answer the load-all call whole and streamed on each of the four lists', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    for (const [session, path] of [
      [subject.session, `${BASE}/user`],
      [admin, `${BASE}/user/${subject.user.user.id}`],
    ] as const) {
      const page = await loadAll(session, path);
      expect(page).toMatchObject({
        totalElements: MANY,
        numberOfElements: MANY,
        size: LOAD_ALL_SIZE,
        number: 1,
        totalPages: 1,
        first: true,
        last: true,
        sort: 'sysdat,desc',
      });
      expect(ours(page.content), path).toEqual(newestFirst());
    }
    for (const [path, keep] of [
      [`${BASE}`, () => true],
      [`${BASE}/status/all`, () => true],
      [`${BASE}/status/pending`, (i: number) => i % 5 !== 0],
      [`${BASE}/status/APPROVED`, (i: number) => i % 5 === 0],
    ] as const) {
      const page = await loadAll(admin, path);
      // Other files file requests meanwhile: the count and the rows come from one snapshot, so they agree.
      expect(page.totalElements, path).toBe(page.content.length);
      expect(page.numberOfElements, path).toBe(page.content.length);
      expect(ours(page.content), path).toEqual(newestFirst(keep));
    }
  });

  it('answer 422 with fieldErrors for a bad page or size', async () => {
    for (const [query, key] of [
      ['size=0', 'size'],
      ['size=1001', 'size'],
      [`size=${LOAD_ALL_SIZE - 1}`, 'size'],
      ['page=0', 'page'],
      [`page=2&size=${LOAD_ALL_SIZE}`, 'page'],
    ] as const) {
      const res = await caller(api.app)(admin, 'GET', `${BASE}/status/all?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().fieldErrors), query).toEqual([key]);
    }
  });
});
