/**
 * The API's session cache across processes (issue 14): two API instances on the one database, each with its
 * own cache and listener. What one ends (sign-out, deactivation, a role taken away, a role's permissions
 * changed), or what any other writer changes in PostgreSQL, ends or narrows the session in the other too,
 * and a dropped listener turns the cache off until it listens again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheOf } from '../../api/src/auth/session-cache';
import { buildTestApp, call, createTestUser, signIn, type TestApp } from './auth-helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 20 ms until it returns true; fails after `ms`. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

let a: TestApp;
let b: TestApp;

/**
 * The PostgreSQL application name of this file's two APIs (node-postgres takes PGAPPNAME for every connection
 * it opens): the dropped-listener test ends only their listeners, not those of the APIs other files run beside.
 */
const appName = `it-session-cache-${process.pid}`;
const appNameBefore = process.env.PGAPPNAME;

beforeAll(async () => {
  process.env.PGAPPNAME = appName;
  [a, b] = await Promise.all([buildTestApp(), buildTestApp()]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  if (appNameBefore === undefined) delete process.env.PGAPPNAME;
  else process.env.PGAPPNAME = appNameBefore;
});

const refresh = (t: TestApp, s: Awaited<ReturnType<typeof signIn>>) =>
  call(t.app, s, 'GET', '/rest/secure/token/refresh');
const permissions = async (t: TestApp, s: Awaited<ReturnType<typeof signIn>>) =>
  (await call(t.app, s, 'GET', '/rest/secure/user_capabilities/granted_permissions')).json() as string[];

describe('session cache across API processes (issue 14)', () => {
  it('caches a session look-up, and a sign-out on one process ends the session on both', async () => {
    const u = await createTestUser(a, 'scout');
    const s = await signIn(a.app, u.username, u.password);
    expect((await refresh(b, s)).statusCode).toBe(200);
    // The cache serves only while its listener listens: on a busy machine the first LISTEN may come after the
    // first look-up (the cache bypassed meanwhile), so the look-up is repeated until the cache holds it.
    await within(
      10_000,
      async () => (await refresh(b, s)).statusCode === 200 && sessionCacheOf(b.deps.prisma)!.size > 0,
    );
    expect((await call(a.app, s, 'POST', '/rest/secure/token/invalidate', {})).statusCode).toBe(200);
    // The process that signed out refuses at once; the other as soon as PostgreSQL's notification lands.
    expect((await refresh(a, s)).statusCode).toBe(401);
    await within(2_000, async () => (await refresh(b, s)).statusCode === 401);
  });

  it('a deactivation or a deleted session written by anyone else ends the cached session', async () => {
    const u = await createTestUser(a, 'sdeact');
    const s1 = await signIn(a.app, u.username, u.password);
    const s2 = await signIn(a.app, u.username, u.password);
    for (const s of [s1, s2]) expect((await refresh(b, s)).statusCode).toBe(200);
    await a.prisma.session.deleteMany({ where: { portalUserId: u.user.id } });
    for (const s of [s1, s2]) await within(2_000, async () => (await refresh(b, s)).statusCode === 401);
    const u2 = await createTestUser(a, 'sdeact2');
    const s3 = await signIn(a.app, u2.username, u2.password);
    expect((await refresh(b, s3)).statusCode).toBe(200);
    await a.prisma.portalUser.update({ where: { id: u2.user.id }, data: { inactive: true } });
    await within(2_000, async () => (await refresh(b, s3)).statusCode === 401);
  });

  it('a portal role taken away or narrowed changes the permissions of a cached session', async () => {
    const u = await createTestUser(a, 'srole', { roles: ['Network User', 'Administrator'] });
    const s = await signIn(a.app, u.username, u.password);
    expect(await permissions(b, s)).toContain('ADMIN');
    const admin = await a.prisma.portalRole.findFirstOrThrow({ where: { description: 'Administrator' } });
    await a.prisma.portalUserRole.delete({
      where: { portalUserId_portalRoleId: { portalUserId: u.user.id, portalRoleId: admin.id } },
    });
    await within(2_000, async () => !(await permissions(b, s)).includes('ADMIN'));

    const network = await a.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
    const before = await permissions(b, s);
    expect(before.length).toBeGreaterThan(0);
    await a.prisma.portalRole.update({ where: { id: network.id }, data: { inactive: true } });
    try {
      await within(2_000, async () => (await permissions(b, s)).length < before.length);
    } finally {
      await a.prisma.portalRole.update({ where: { id: network.id }, data: { inactive: false } });
    }
    await within(2_000, async () => (await permissions(b, s)).length === before.length);
  });

  it('a dropped listener turns the cache off until it listens again, and sessions still end meanwhile', async () => {
    const u = await createTestUser(a, 'slisten');
    const s = await signIn(a.app, u.username, u.password);
    expect((await refresh(b, s)).statusCode).toBe(200);
    const cache = sessionCacheOf(b.deps.prisma)!;
    expect(cache.size).toBeGreaterThan(0);
    // Every listener of both processes loses its connection, as when PostgreSQL restarts.
    const ended = await a.prisma.$queryRaw<{ pid: number; ended: boolean }[]>`
      SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_stat_activity
       WHERE query = 'LISTEN session_changed' AND application_name = ${appName}`;
    expect(ended.length).toBeGreaterThan(0);
    await within(2_000, async () => cache.size === 0);
    await a.prisma.session.deleteMany({ where: { portalUserId: u.user.id } });
    expect((await refresh(b, s)).statusCode).toBe(401);
    const s2 = await signIn(a.app, u.username, u.password);
    // Listening again: the cache fills, and notifications reach it.
    await within(5_000, async () => (await refresh(b, s2)).statusCode === 200 && cache.size > 0);
    await a.prisma.session.deleteMany({ where: { portalUserId: u.user.id } });
    await within(2_000, async () => (await refresh(b, s2)).statusCode === 401);
  });
});
