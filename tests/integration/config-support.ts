/**
 * Helpers of the configuration, reference-data and audit-trail tests: records of their own (so no seeded
 * record other tests rely on is ever changed) and the shared API harness (./harness).
 */
import { afterAll, beforeAll } from 'vitest';
import type { PrismaClient } from '@portal/db';

import { caller, signIn, startApi, type Session, type TestApi } from './harness';

export { caller, signIn, startApi, type Method, type Session, type TestApi } from './harness';

/**
 * The API with the three personas the configuration tests act as: ADMIN, READ_USERS and plain USER. `env`
 * overrides variables (startApi).
 */
export async function startConfigApi(env: Record<string, string> = {}): Promise<{
  api: TestApi;
  call: ReturnType<typeof caller>;
  admin: Session;
  readonly: Session;
  user: Session;
}> {
  const api = await startApi(env);
  const [admin, readonly, user] = await Promise.all(
    (['admin', 'readonly', 'user'] as const).map((name) => signIn(api.app, name)),
  );
  return { api, call: caller(api.app), admin: admin!, readonly: readonly!, user: user! };
}

/** What startConfigApi gives a test file. */
export type ConfigApi = Awaited<ReturnType<typeof startConfigApi>>;

/**
 * Starts the configuration API (startConfigApi) before the file's tests and closes it after. The api and the
 * three sessions are returned empty and filled in place by this beforeAll (hooks a file registers later see
 * them filled), so a file can destructure them once at load; `call` goes to the started app. `env` as
 * startConfigApi's.
 */
export function useConfigApi(env: Record<string, string> = {}): ConfigApi {
  const api = {} as TestApi;
  const admin = {} as Session;
  const readonly = {} as Session;
  const user = {} as Session;
  const call: ConfigApi['call'] = (...args) => caller(api.app)(...args);
  beforeAll(async () => {
    const started = await startConfigApi(env);
    Object.assign(api, started.api);
    Object.assign(admin, started.admin);
    Object.assign(readonly, started.readonly);
    Object.assign(user, started.user);
  });
  afterAll(async () => api.close?.());
  return { api, call, admin, readonly, user };
}

/** A unique suffix for names this test run creates. */
export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** An active user of the test's own (no directory entry: it never signs in). */
export async function createTestUser(prisma: PrismaClient, tag: string) {
  const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  return prisma.portalUser.create({
    data: {
      username: `cfgtest${n}`,
      firstName: 'Config',
      lastName: `Tester ${tag}`.slice(0, 45),
      email: `cfgtest.${n}@example.org`,
    },
  });
}

/** An unresolved access-change request row naming `block` (a projection row only; no workflow runs for it). */
export async function createOutstandingRequest(
  prisma: PrismaClient,
  subjectUserId: number,
  block: { roleName: string; systemAccessIds: number[] },
) {
  const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  return prisma.accessModRequest.create({
    data: {
      workflowId: `config-test-${n}`,
      requestType: 'NEW',
      requestStatus: 'PENDING_REVIEW',
      subjectUserId,
      requesterUserId: subjectUserId,
      accessControls: [{ questionNum: 1, siteCodes: [], laoIds: [], studyNames: [], ...block }],
      lastModifiedBy: 'config-test',
      sysdat: new Date('2020-01-01T00:00:00Z'),
      dchng: new Date('2020-01-01T00:00:00Z'),
    },
  });
}

/** The audit rows of one record, oldest first, straight from the table. */
export function auditRowsOf(prisma: PrismaClient, entityType: string, entityId: number | string) {
  return prisma.auditEvent.findMany({ where: { entityType, entityId: String(entityId) }, orderBy: { id: 'asc' } });
}
