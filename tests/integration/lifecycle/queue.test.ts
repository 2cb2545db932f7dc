/**
 * The User Requests queue reads one read model across request kinds (REQUEST-LIFECYCLE.md "The shape"; 000 §3
 * User request, §7 user_requests/{status}): registrations beside access-change requests, 'pending' meaning
 * every unresolved status of every kind, a named status only the kinds that have it, deleted registrations
 * never listed, and the OR filter matching kinds, statuses and dates as the screens show them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { type TestApi, caller, signIn, startApi } from '../harness';

let api: TestApi;
let prisma: PrismaClient;
const tag = `Queue${Date.now()}`;

beforeAll(async () => {
  api = await startApi();
  prisma = api.prisma;
  for (const [i, status] of (['PENDING', 'DENIED', 'DELETED'] as const).entries()) {
    await prisma.registration.create({
      data: {
        workflowId: `registration-queue-${tag}-${i}`,
        registrationStatus: status,
        firstName: 'Quinn',
        lastName: `${tag}${status}`,
        jobTitle: 'Coordinator',
        organizationName: 'Queue Org',
        phoneNumber: '5550100',
        email: `${tag.toLowerCase()}-${i}@example.org`,
        accessControls: [],
        lastModifiedBy: 'anonymous',
        sysdat: new Date('2026-03-04T05:06:00Z'),
        workflowStartedAt: new Date(),
      },
    });
  }
});

afterAll(async () => {
  await prisma.registration.deleteMany({ where: { lastName: { startsWith: tag } } });
  await api?.close();
});

const queue = async (path: string) => {
  const reviewer = await signIn(api.app, 'reviewer');
  const res = await caller(api.app)(reviewer, 'GET', `/rest/secure/user_management/user_requests/${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: Array<Record<string, unknown>>; totalElements: number };
};

describe('user requests queue across kinds', () => {
  it("lists pending registrations under 'pending' and their own status, never deleted ones", async () => {
    const pending = await queue(`pending?filter=${tag}&size=50`);
    expect(pending.content).toEqual([
      expect.objectContaining({
        userRequestType: 'REGISTRATION',
        requestType: null,
        requestStatus: 'PENDING',
        lastName: `${tag}PENDING`,
        organizationName: 'Queue Org',
      }),
    ]);
    const all = await queue(`all?filter=${tag}&size=50&sort=lastName,asc`);
    expect(all.content.map((r) => r.requestStatus)).toEqual(['DENIED', 'PENDING']);
    const denied = await queue(`DENIED?filter=${tag}`);
    expect(denied.content.map((r) => r.lastName)).toEqual([`${tag}DENIED`]);
    expect((await queue(`APPROVED?filter=${tag}`)).totalElements).toBe(0);
  });

  it('filters by kind name and by the date as displayed', async () => {
    const kinds = await queue(`all?filter=registration&size=200`);
    expect(kinds.content.length).toBeGreaterThanOrEqual(2);
    expect(new Set(kinds.content.map((r) => r.userRequestType))).toEqual(new Set(['REGISTRATION']));
    const byDate = await queue(`all?filter=${encodeURIComponent('03/04/2026 5:06')}&size=200`);
    expect(byDate.content.filter((r) => String(r.lastName).startsWith(tag))).toHaveLength(2);
  });

  it('refuses an unknown status path and sort field with 422', async () => {
    const reviewer = await signIn(api.app, 'reviewer');
    const call = caller(api.app);
    expect((await call(reviewer, 'GET', '/rest/secure/user_management/user_requests/DELETED')).statusCode).toBe(422);
    expect(
      (await call(reviewer, 'GET', '/rest/secure/user_management/user_requests/all?sort=password,asc')).statusCode,
    ).toBe(422);
  });
});
