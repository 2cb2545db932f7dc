/**
 * Helpers of the sign-in, session and password tests (issue 3): an API app on the shared test stack with
 * chosen settings, test-only users (portal row + directory entry) so lockouts and password changes never
 * touch the demo personas, and calls with the session cookie and the XSRF header.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PortalUser } from '@portal/db';
import { addPerson, setPasswordChangedTime } from '@portal/directory';
import { caller, type Method, type Session, startApi, type TestApi } from './harness';

export { signIn, signInCall, type Session } from './harness';

export type TestApp = TestApi;

/** Builds the API on the test stack; `overrides` set environment variables (timeouts, rate limits, ...). */
export const buildTestApp = (overrides: Record<string, string> = {}): Promise<TestApp> => startApi(overrides);

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

/** A call with the session cookie and (unless `xsrf` is false) the XSRF header. */
export function call(
  app: FastifyInstance,
  s: Session | null,
  method: Method,
  url: string,
  payload?: unknown,
  xsrf = true,
): Promise<LightMyRequestResponse> {
  return caller(app)(s, method, url, payload, { xsrf });
}

/**
 * A client address no other test uses (in 198.18.0.0/15, the range set aside for benchmarks): the rate limits
 * count in PostgreSQL for every API of the run, so a test that counts a limit from 127.0.0.1 would share its
 * budget with every other test's calls.
 */
export const uniqueClientAddress = (): string => {
  const n = crypto.randomInt(1, 131_071);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
};

/** A password that keeps every rule and was never used. */
export const freshPassword = (): string => `New-${crypto.randomBytes(5).toString('hex')}-Zz9!`;

export const DAY_MS = 86_400_000;
