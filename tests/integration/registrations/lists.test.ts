/**
 * Which registrations the lists show (001 §4: 'A registration is shown as pending or DENIED ... Other status
 * values are not shown'; a deleted registration is kept for the audit trail only): GET
 * /rest/secure/user_registration ('all'), GET .../status/all and GET .../status/DELETED agree that a DELETED
 * registration is never listed, while pending and DENIED ones are.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registration } from '@portal/contract';
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
}, 60_000);

afterAll(async () => {
  await api?.prisma.registration.deleteMany({ where: { workflowId: { startsWith: tag } } });
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
