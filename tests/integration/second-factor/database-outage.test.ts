/**
 * The second step and enrolment while PostgreSQL is away (stopped: its port closed; frozen: connections open,
 * nothing answered), through an API whose database sits behind a fault proxy: the person is told to try again
 * (503 with the contract's message), never a 500, a stack trace or a call that hangs; no code is used up and
 * nothing is enrolled; once the database is back the same code signs the person in.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract';
import { answered, withDatabaseBehindProxy } from '../../support/database-fault';
import { FAULTS, faultName } from '../../support/fault-proxy';
import { currentCode, enrolConfirmed } from '../../support/totp-codes';
import { createTestUser } from '../auth-helpers';
import { stackEnv } from '../fixtures';
import { type TestApi, caller, signInCall, startApi } from '../harness';

const KEY = crypto.randomBytes(32).toString('base64url');
const STEP = '/rest/secure/token/second_factor';
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ SECOND_FACTOR_KEY: KEY });
});
afterAll(async () => {
  await api?.close();
});

/** Signs `user` in with the password on `app`; @returns the session and the sign-in's body. */
async function signedIn(app: TestApi['app'], user: { username: string; password: string }) {
  const res = await signInCall(app, user.username, user.password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  const body = res.json() as Record<string, unknown>;
  return { session: { cookie: `pg_session=${cookie.value}`, xsrf: body.xsrfToken as string, body }, body };
}

describe.each(FAULTS)('PostgreSQL %s', (fault) => {
  it(`answers the second step 503 while the database is ${faultName(fault)}, uses no code, and signs in once it is back`, async () => {
    const user = await createTestUser(api, 'sfdbstep');
    const enrolment = await enrolConfirmed(api.prisma, KEY, user.user, 'Phone');
    await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma, url }) => {
      const behind = await startApi({ SECOND_FACTOR_KEY: KEY, DATABASE_URL: url }, () => prisma);
      try {
        const { session, body } = await signedIn(behind.app, user);
        expect(body).toHaveProperty('secondFactor');
        const code = await currentCode(enrolment.secret);
        proxy.fail(fault);
        const down = await answered('the second step', caller(behind.app)(session, 'POST', STEP, { code }));
        proxy.heal();
        expect(down.statusCode, down.body).toBe(503);
        expect(down.body).not.toMatch(/ECONN|timeout|prisma|at .*\.(ts|js):\d+/i);
        expect(down.json()).toEqual({ message: AUTH_MESSAGES.databaseUnavailable });
        const factor = await api.prisma.secondFactor.findUniqueOrThrow({ where: { id: enrolment.factorId } });
        expect(factor.lastTimeStep, 'the code was not used up').toBeNull();
        const back = await answered('the second step after', caller(behind.app)(session, 'POST', STEP, { code }));
        expect(back.statusCode, back.body).toBe(200);
        expect(back.json()).not.toHaveProperty('secondFactor');
      } finally {
        proxy.heal();
        await behind.close();
      }
    });
  });

  it(`answers an enrolment 503 while the database is ${faultName(fault)} and enrols nothing`, async () => {
    const user = await createTestUser(api, 'sfdbenrol');
    await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma, url }) => {
      const behind = await startApi({ SECOND_FACTOR_KEY: KEY, DATABASE_URL: url }, () => prisma);
      try {
        const { session } = await signedIn(behind.app, user);
        const begin = () =>
          caller(behind.app)(session, 'POST', '/rest/secure/second_factor/totp', {
            password: user.password,
            label: 'Phone',
          });
        proxy.fail(fault);
        const down = await answered('the enrolment', begin());
        proxy.heal();
        expect(down.statusCode, down.body).toBe(503);
        expect(down.json()).toEqual({ message: AUTH_MESSAGES.databaseUnavailable });
        expect(await api.prisma.secondFactor.count({ where: { portalUserId: user.user.id } })).toBe(0);
        const back = await answered('the enrolment after', begin());
        expect(back.statusCode, back.body).toBe(200);
      } finally {
        proxy.heal();
        await behind.close();
      }
    });
  });
});
