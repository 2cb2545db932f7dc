/**
 * Helpers of the sign-in, session and password tests (issue 3): an API app on the shared test stack with
 * chosen settings, test-only users (portal row + directory entry) so lockouts and password changes never
 * touch the demo personas, and calls with the session cookie and the XSRF header.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, Connection } from '@temporalio/client';
import { buildServer, loadApiConfig, type ApiConfig } from '@portal/api';
import type { PortalUser, PrismaClient } from '@portal/db';
import { addPerson, type DirectoryConfig, setPasswordChangedTime } from '@portal/directory';
import { stackEnv, testPrisma } from './fixtures';

export interface TestApp {
  app: FastifyInstance;
  prisma: PrismaClient;
  cfg: ApiConfig;
  directory: DirectoryConfig;
  close(): Promise<void>;
}

/** Builds the API on the test stack; `overrides` set environment variables (timeouts, rate limits, ...). */
export async function buildTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const cfg = loadApiConfig({ ...stackEnv(), LOG_LEVEL: 'silent', ...overrides });
  const prisma = testPrisma();
  // These tests never start workflows: a lazy connection is never opened.
  const temporal = new Client({ connection: Connection.lazy({ address: cfg.TEMPORAL_ADDRESS }) });
  const app = await buildServer({ cfg, prisma, temporal, directory: cfg });
  return {
    app,
    prisma,
    cfg,
    directory: cfg,
    close: async () => {
      await app.close();
      await prisma.$disconnect();
    },
  };
}

export interface TestUser {
  user: PortalUser;
  username: string;
  email: string;
  password: string;
}

let uid = 0;

/**
 * Creates an active test user with the 'Network User' role (or `roles`) and a directory entry; without
 * `password: null` the entry gets a fresh password that keeps every rule, set `passwordAgeDays` (default 2,
 * past the 24-hour minimum age) ago.
 */
export async function createTestUser(
  t: Pick<TestApp, 'prisma' | 'directory'>,
  tag: string,
  opts: {
    password?: string | null;
    roles?: string[];
    inactive?: boolean;
    withEntry?: boolean;
    passwordAgeDays?: number;
  } = {},
): Promise<TestUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = `t${tag}${suffix}`.toLowerCase().slice(0, 60);
  const email = `${username}@it.portal.test`;
  const password = opts.password === undefined ? `Pw-${suffix}-Aa1!xyz` : (opts.password ?? '');
  const roles = await t.prisma.portalRole.findMany({ where: { description: { in: opts.roles ?? ['Network User'] } } });
  let user = await t.prisma.portalUser.create({
    data: {
      username,
      firstName: 'Test',
      lastName: tag,
      email,
      inactive: opts.inactive ?? false,
      portalRoles: { create: roles.map((r) => ({ portalRoleId: r.id })) },
    },
  });
  if (opts.withEntry !== false) {
    const uuid = await addPerson(t.directory, {
      username,
      firstName: 'Test',
      lastName: tag,
      email,
      gecos: '',
      uidNumber: 60_000 + user.id + ++uid,
      ...(opts.password === null ? {} : { password }),
    });
    user = await t.prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
    const age = opts.passwordAgeDays ?? 2;
    if (opts.password !== null && age > 0) {
      await setPasswordChangedTime(t.directory, username, new Date(Date.now() - age * DAY_MS));
    }
  }
  return { user, username, email, password };
}

export interface Session {
  cookie: string;
  xsrf: string;
  body: Record<string, unknown>;
}

/** POST /rest/token/create. */
export function signInCall(app: FastifyInstance, username: string, password: string) {
  return app.inject({ method: 'POST', url: '/rest/token/create', payload: { username, password } });
}

/** Signs in and expects 200. @returns the cookie, the XSRF token and the response body. */
export async function signIn(app: FastifyInstance, username: string, password: string): Promise<Session> {
  const res = await signInCall(app, username, password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

/** A call with the session cookie and (unless `xsrf` is false) the XSRF header. */
export function call(
  app: FastifyInstance,
  s: Session | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  xsrf = true,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (s) headers.cookie = s.cookie;
  if (s && xsrf) headers['x-xsrf-token'] = s.xsrf;
  return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A password that keeps every rule and was never used. */
export const freshPassword = (): string => `New-${crypto.randomBytes(5).toString('hex')}-Zz9!`;

export const DAY_MS = 86_400_000;
