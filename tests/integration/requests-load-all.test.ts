/**
 * The load-all call (000 §9: page 1, size 1,000,000) of the request lists beyond one page of 1,000: the
 * reviewer queue (000 §7 GET user_requests/{status}) and the access-modification lists (001 §7 GET
 * user_access_mod_request/, /status/{status}, /user/{userId}) answer the whole list as one page, streamed in
 * chunks, newest first; a later page of the load-all size and a size between 1,000 and it are answered 422.
 */
import crypto from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_ALL_SIZE } from '@portal/contract';
import { type Session, caller, signIn, startApi, type TestApi } from './harness';

let api: TestApi;
let admin: Session;
let base: string;
let subjectId: number;
/** The ids of this file's requests, newest first. */
let ids: number[];

/** The subject's names and email carry `tag`, so the queue's filter `tag` selects this file's requests. */
const tag = `rla${crypto.randomBytes(3).toString('hex')}`;
/** More than the 1,000 rows of the largest page. */
const MANY = 1_500;

beforeAll(async () => {
  api = await startApi();
  admin = await signIn(api.app, 'admin');
  const subject = await api.prisma.portalUser.create({
    data: { username: tag, firstName: `F${tag}`, lastName: `L${tag}`, email: `${tag}@load-all.portal.test` },
  });
  subjectId = subject.id;
  // Resolved and started: no reconciler, reminder or open-request count of another file takes them up.
  await api.prisma.$executeRaw`
    INSERT INTO "AccessModRequest" ("workflowId", "requestType", "requestStatus", "subjectUserId",
      "requesterUserId", "accessControls", "lastModifiedBy", "sysdat", "dchng", "workflowStartedAt")
    SELECT ${tag} || '-' || g, 'NEW', 'REJECTED', ${subjectId}, ${subjectId}, '[]'::jsonb, 'test',
      now() - g * interval '1 second', now(), now()
    FROM generate_series(1, ${MANY}) g`;
  ids = (
    await api.prisma.accessModRequest.findMany({
      where: { subjectUserId: subjectId },
      orderBy: [{ sysdat: 'desc' }, { id: 'desc' }],
      select: { id: true },
    })
  ).map((r) => r.id);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api?.prisma.accessModRequest.deleteMany({ where: { subjectUserId: subjectId } });
  await api?.prisma.portalUser.deleteMany({ where: { username: tag } });
  await api?.close();
});

/** GETs `path` at the load-all size over HTTP and reads the body chunk by chunk. @returns the page and the chunk count. */
async function loadAll(path: string): Promise<{ page: Record<string, unknown>; chunks: number }> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${base}${path}${sep}page=1&size=${LOAD_ALL_SIZE}`, {
    headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf },
  });
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) chunks.push(decoder.decode(chunk, { stream: true }));
  expect(res.status, chunks.join('').slice(0, 500)).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  // Streamed: no length known up front.
  expect(res.headers.get('transfer-encoding')).toBe('chunked');
  return { page: JSON.parse(chunks.join('')), chunks: chunks.length };
}

const mine = (content: Array<{ id: number }>) => content.filter((r) => ids.includes(r.id)).map((r) => r.id);

describe('the load-all call of the request lists (000 §9)', () => {
  it("answers the reviewer queue's whole view as one streamed page", async () => {
    const { page, chunks } = await loadAll(`/rest/secure/user_management/user_requests/all?filter=${tag}`);
    expect(chunks).toBeGreaterThan(1);
    expect(page).toMatchObject({
      totalElements: MANY,
      numberOfElements: MANY,
      size: LOAD_ALL_SIZE,
      number: 1,
      totalPages: 1,
      first: true,
      last: true,
      sort: 'dateSubmitted,desc',
    });
    expect((page.content as Array<{ id: number }>).map((r) => r.id)).toEqual(ids);
  });

  it("answers one user's access-modification requests, and those of every user and of one status", async () => {
    const own = await loadAll(`/rest/secure/user_access_mod_request/user/${subjectId}`);
    expect(own.page).toMatchObject({ totalElements: MANY, numberOfElements: MANY, totalPages: 1, last: true });
    expect((own.page.content as Array<{ id: number }>).map((r) => r.id)).toEqual(ids);
    for (const path of [
      '/rest/secure/user_access_mod_request/',
      '/rest/secure/user_access_mod_request/status/REJECTED',
    ]) {
      const { page } = await loadAll(path);
      const content = page.content as Array<{ id: number }>;
      expect(page.numberOfElements, path).toBe(content.length);
      expect(content.length, path).toBeGreaterThanOrEqual(MANY);
      expect(mine(content), path).toEqual(ids);
    }
  });

  // A load-all answer holds one connection of the API's SQL pool (four) from its count to its last row. A caller
  // that goes away while the answer is being prepared must not keep it: four such callers left every secure
  // call (the session look-up uses the same pool) waiting for a connection that never came back.
  it('gives its connection back when the caller goes away before the first byte', async () => {
    const url = new URL(`${base}/rest/secure/user_management/user_requests/all`);
    const request =
      `GET ${url.pathname}?filter=${tag}&page=1&size=${LOAD_ALL_SIZE} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Cookie: ${admin.cookie}\r\nX-XSRF-TOKEN: ${admin.xsrf}\r\nAccept: application/json\r\n\r\n`;
    for (let i = 0; i < 12; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname, () =>
          // The whole request is sent, then the caller hangs up before any answer.
          socket.write(request, () => socket.destroy()),
        );
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    const res = await fetch(`${url}?filter=${tag}&page=1&size=${LOAD_ALL_SIZE}`, {
      headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf },
      signal: AbortSignal.timeout(30_000),
    }).catch((err: unknown) => {
      throw new Error('no answer within 30 s after 12 abandoned load-all calls: their connections were kept', {
        cause: err,
      });
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { totalElements: number }).totalElements).toBe(MANY);
  });

  it('answers 422 for a later page of the load-all size and for a size between the largest page and it', async () => {
    for (const path of [
      '/rest/secure/user_management/user_requests/all',
      '/rest/secure/user_access_mod_request/',
      `/rest/secure/user_access_mod_request/user/${subjectId}`,
    ]) {
      for (const [query, key] of [
        [`page=2&size=${LOAD_ALL_SIZE}`, 'page'],
        ['size=1001', 'size'],
      ] as const) {
        const res = await caller(api.app)(admin, 'GET', `${path}?${query}`);
        expect(res.statusCode, `${path}?${query}`).toBe(422);
        expect(Object.keys(res.json().fieldErrors), `${path}?${query}`).toEqual([key]);
      }
    }
  });
});
