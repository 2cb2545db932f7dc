/**
 * Which registrations the lists show (001 §4: 'A registration is shown as pending or DENIED ... Other status
 * values are not shown'; a deleted registration is kept for the audit trail only): GET
 * /rest/secure/user_registration ('all'), GET .../status/all and GET .../status/DELETED agree that a DELETED
 * registration is never listed, while pending and DENIED ones are. The two paged registration lists (001 §7
 * status/{status}, 000 §7 user_registration/proxy[/{id}]) answer the load-all call (000 §9 page 1, size
 * 1,000,000) whole and streamed, at more rows than one page holds.
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_ALL_SIZE, type Registration } from '@portal/contract';
import { type Session, caller, signIn, startApi, type TestApi } from '../harness';

let api: TestApi;
let reviewer: Session;
const tag = `rl${crypto.randomBytes(3).toString('hex')}`;
const ids: Record<'PENDING' | 'DENIED' | 'DELETED', number> = { PENDING: 0, DENIED: 0, DELETED: 0 };

beforeAll(async () => {
  api = await startApi();
  reviewer = await signIn(api.app, 'admin');
  for (const status of ['PENDING', 'DENIED', 'DELETED'] as const) {
    const row = await api.prisma.registration.create({
      data: {
        workflowId: `${tag}-${status}`,
        registrationStatus: status,
        firstName: status,
        lastName: `L${tag}`,
        jobTitle: 'Nurse',
        organizationName: 'Clinic',
        phoneNumber: '555-0100',
        email: `${tag}.${status.toLowerCase()}@reg.portal.test`,
        accessControls: [],
        lastModifiedBy: 'test',
        // Marked started, so that no reconciler starts workflows for these rows.
        workflowStartedAt: new Date(),
      },
    });
    ids[status] = row.id;
  }
});

afterAll(async () => {
  await api?.prisma.registration.deleteMany({ where: { workflowId: { startsWith: tag } } });
  await api?.prisma.portalUser.deleteMany({ where: { username: { startsWith: tag } } });
  await api?.close();
});

/** The ids of one list's answer that this file wrote, and the answer's total. */
const listed = async (path: string) => {
  const res = await caller(api.app)(reviewer, 'GET', path);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { content: Registration[]; totalElements?: number };
  const mine = new Set(Object.values(ids));
  return { ours: body.content.filter((r) => mine.has(r.id)).map((r) => r.id), total: body.totalElements };
};

describe('deleted registrations are never listed (001 §4)', () => {
  it("'all' (both calls) lists pending and DENIED ones, not the DELETED one", async () => {
    for (const path of ['/rest/secure/user_registration', '/rest/secure/user_registration/status/all?size=1000']) {
      const { ours } = await listed(path);
      expect(ours, path).toContain(ids.PENDING);
      expect(ours, path).toContain(ids.DENIED);
      expect(ours, path).not.toContain(ids.DELETED);
    }
  });

  it('status/DELETED agrees: an empty list', async () => {
    expect(await listed('/rest/secure/user_registration/status/DELETED')).toEqual({ ours: [], total: 0 });
    expect((await listed('/rest/secure/user_registration/status/DENIED')).ours).toEqual([ids.DENIED]);
  });
});

describe('the load-all call of the registration lists (000 §9)', () => {
  it('answers every registration of status/pending and of a proxy history, streamed', async () => {
    const MANY = 1_100;
    const proxy = await api.prisma.portalUser.create({
      data: { username: `${tag}proxy`, firstName: 'P', lastName: `L${tag}`, email: `${tag}.proxy@reg.portal.test` },
    });
    const start = Date.UTC(2026, 0, 1);
    await api.prisma.registration.createMany({
      data: Array.from({ length: MANY }, (_, i) => ({
        workflowId: `${tag}-many-${i}`,
        firstName: `F${i}`,
        lastName: `L${tag}`,
        jobTitle: 'Nurse',
        organizationName: 'Clinic',
        phoneNumber: '555-0100',
        email: `${tag}.${i}@many.portal.test`,
        accessControls: [],
        isProxy: true,
        proxyUserId: proxy.id,
        lastModifiedBy: 'test',
        sysdat: new Date(start + i * 1000),
        workflowStartedAt: new Date(),
      })),
    });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = api.app.server.address() as AddressInfo;
    const newestFirst = Array.from({ length: MANY }, (_, i) => `F${MANY - 1 - i}`);
    for (const path of [
      `/rest/secure/user_management/user_registration/proxy/${proxy.id}`,
      '/rest/secure/user_registration/status/pending',
    ]) {
      const res = await fetch(`http://127.0.0.1:${port}${path}?page=1&size=${LOAD_ALL_SIZE}&sort=sysdat,desc`, {
        headers: { cookie: reviewer.cookie, 'x-xsrf-token': reviewer.xsrf },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('transfer-encoding'), path).toBe('chunked');
      const page = (await res.json()) as { content: Registration[]; totalElements: number; size: number };
      expect(page.totalElements, path).toBe(page.content.length);
      expect(page.size, path).toBe(LOAD_ALL_SIZE);
      const many = page.content.filter((r) => r.workflowId.startsWith(`${tag}-many-`)).map((r) => r.firstName);
      expect(many, path).toEqual(newestFirst);
    }
  });
});
