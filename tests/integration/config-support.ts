/**
 * Helpers of the configuration, reference-data and audit-trail tests: the API built in-process against the
 * test stack (real PostgreSQL, slapd, Temporal), demo sign-in, calls with the session cookie and XSRF
 * header, and records of their own (so no seeded record other tests rely on is ever changed).
 */
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, Connection } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import { buildServer, loadApiConfig, type Deps } from '@portal/api';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { stackEnv, testPrisma } from './fixtures';

export interface Session {
  cookie: string;
  xsrf: string;
}

export interface TestApi {
  app: FastifyInstance;
  deps: Deps;
  prisma: PrismaClient;
  connection: Connection;
  close: () => Promise<void>;
}

/** Builds the API on the test stack; `overrides` lets a test change the environment or the Prisma client. */
export async function startApi(
  env: Record<string, string> = {},
  prismaOverride?: (p: PrismaClient) => PrismaClient,
): Promise<TestApi> {
  const prisma = testPrisma();
  const cfg = loadApiConfig({ ...stackEnv(), LOG_LEVEL: 'silent', ...env });
  const connection = await Connection.connect({ address: cfg.TEMPORAL_ADDRESS });
  const deps: Deps = {
    cfg,
    prisma: prismaOverride ? prismaOverride(prisma) : prisma,
    temporal: new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE }),
    directory: cfg,
  };
  const app = await buildServer(deps);
  return {
    app,
    deps,
    prisma,
    connection,
    close: async () => {
      await app.close();
      await connection.close();
      await prisma.$disconnect();
    },
  };
}

export const password = (username: string) => DEMO_ACCOUNTS.find((a) => a.username === username)!.password;

export async function signIn(app: FastifyInstance, username: string): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/rest/token/create',
    payload: { username, password: password(username) },
  });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export function caller(app: FastifyInstance) {
  return (
    s: Session | null,
    method: Method,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> => {
    const h: Record<string, string> = { ...headers };
    if (s) {
      h.cookie = s.cookie;
      h['x-xsrf-token'] = s.xsrf;
    }
    return app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) });
  };
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
