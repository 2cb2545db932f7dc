/**
 * Reference data (000 §3, §4 Reference data loading, §7 Reference data, §8 Reference data): the public lists
 * and their order, the secured equivalents (READ_USERS), the ETag / If-None-Match revalidation that answers
 * 304 without touching the database, and the 'Problem retrieving ...' answer when the database fails. The
 * database fails for real (issue 21): a second API reaches PostgreSQL through a fault proxy
 * (tests/support/fault-proxy.ts) that refuses connections (stopped) or forwards nothing (frozen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Site } from '@portal/contract';
import { withDatabaseBehindProxy } from '../support/database-fault';
import { FAULTS, type FaultProxy, faultName } from '../support/fault-proxy';
import { type Session, type TestApi, caller, signIn, startApi } from './config-support';
import { stackEnv } from './fixtures';

let api: TestApi;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  api = await startApi();
  call = caller(api.app);
});
afterAll(async () => api?.close());

/**
 * Runs `body` with a second API whose PostgreSQL is reached through a fault proxy: its DATABASE_URL and its
 * Prisma client (the product's `createPrisma`, as api/src/main.ts builds it) go through the proxy.
 */
function withApiBehindProxy(body: (api: TestApi, proxy: FaultProxy) => Promise<void>): Promise<void> {
  return withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma, url }) => {
    const proxied = await startApi({ DATABASE_URL: url }, () => prisma);
    try {
      await body(proxied, proxy);
    } finally {
      proxy.heal();
      await proxied.close();
    }
  });
}

/** How long a call may take before the test calls it hung: the API's own deadline must come first. */
const ANSWER_WITHIN_MS = 20_000;

/** `app.inject(...)`, failing the test when no answer comes within ANSWER_WITHIN_MS. */
async function answered(api: TestApi, opts: { url: string; headers?: Record<string, string> }) {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`GET ${opts.url} not answered within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
  });
  try {
    return await Promise.race([api.app.inject({ method: 'GET', ...opts }), hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('public reference lists (000 §7)', () => {
  it('lists sites with LAOs by laoCode first, then AOs by siteCode; each LAO is also an AO', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/rest/public/sites' });
    expect(res.statusCode).toBe(200);
    const sites = res.json() as Site[];
    const laos = sites.filter((s) => s.type === 'LAO');
    const aos = sites.filter((s) => s.type === 'AO');
    expect(sites).toEqual([...laos, ...aos]);
    expect(laos.map((s) => s.otherIdentifier)).toEqual([...laos.map((s) => s.otherIdentifier)].sort());
    expect(aos.map((s) => s.siteCode)).toEqual([...aos.map((s) => s.siteCode)].sort());
    for (const lao of laos) expect(aos.some((a) => a.siteCode === lao.siteCode)).toBe(true);
    expect(laos[0]).toMatchObject({
      siteType: 'LAO',
      otherIdentifier: expect.any(String),
      siteName: expect.any(String),
    });
  });

  it('lists countries, states of a country (any case), studies by name and the site relations', async () => {
    const countries = (await api.app.inject({ method: 'GET', url: '/rest/public/countries' })).json();
    expect(countries).toContainEqual({ country: 'US', countryName: 'United States' });
    const states = (await api.app.inject({ method: 'GET', url: '/rest/public/states/us' })).json();
    expect(states).toContainEqual({ state: 'CA', stateName: 'California' });
    const unknown = await api.app.inject({ method: 'GET', url: '/rest/public/states/ZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: MESSAGES.referenceData.states });
    const bad = await api.app.inject({ method: 'GET', url: '/rest/public/states/USA' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ country: ['invalid'] });

    const studies = (await api.app.inject({ method: 'GET', url: '/rest/public/studies' })).json() as {
      study: string;
    }[];
    expect(studies.length).toBeGreaterThan(0);
    expect(studies.map((s) => s.study)).toEqual([...studies.map((s) => s.study)].sort());
    const relations = (await api.app.inject({ method: 'GET', url: '/rest/public/site_relation' })).json();
    expect(relations[0]).toMatchObject({
      id: expect.any(Number),
      active: true,
      lao: { laoCode: expect.any(String) },
      site: { siteCode: expect.any(String) },
      study: { study: expect.any(String) },
    });
  });
});

describe('HTTP caching (000 §4: a reload costs no query)', () => {
  // Proven with the database away: a revalidation that touched it could not answer 304.
  it('sends an ETag and answers If-None-Match with 304 from memory while the database is stopped or frozen', async () => {
    await withApiBehindProxy(async (cached, proxy) => {
      const first = await answered(cached, { url: '/rest/public/sites' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      for (const fault of FAULTS) {
        proxy.fail(fault);
        const again = await answered(cached, { url: '/rest/public/sites', headers: { 'if-none-match': etag } });
        expect(again.statusCode, faultName(fault)).toBe(304);
        expect(again.body).toBe('');
        const weak = await answered(cached, {
          url: '/rest/public/sites',
          headers: { 'if-none-match': `"x", W/${etag}` },
        });
        expect(weak.statusCode, faultName(fault)).toBe(304);
        const plain = await answered(cached, { url: '/rest/public/sites' });
        expect(plain.statusCode, faultName(fault)).toBe(200);
        expect(plain.body).toBe(first.body);
        proxy.heal();
      }
      // Other /rest answers stay uncached.
      expect((await answered(cached, { url: '/rest/public/health' })).headers['cache-control']).toBe('no-store');
    });
  });

  for (const fault of FAULTS) {
    it(`answers a failed load with 503 and the spec's 'Problem retrieving ...' text (database ${faultName(fault)})`, async () => {
      await withApiBehindProxy(async (broken, proxy) => {
        proxy.fail(fault);
        const res = await answered(broken, { url: '/rest/public/studies' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ message: 'Problem retrieving Studies.' });
        expect(res.body).not.toMatch(/ECONN|timeout|at .*\.(ts|js):\d+/i);
        // The failure is not kept: once the database is back the list loads.
        proxy.heal();
        const healed = await answered(broken, { url: '/rest/public/studies' });
        expect(healed.statusCode, healed.body).toBe(200);
        expect((healed.json() as unknown[]).length).toBeGreaterThan(0);
      });
    });
  }
});

describe('the health check', () => {
  for (const fault of FAULTS) {
    it(`answers 503 naming the database, never hangs, while the database is ${faultName(fault)}`, async () => {
      await withApiBehindProxy(async (broken, proxy) => {
        expect((await answered(broken, { url: '/rest/public/health' })).statusCode).toBe(200);
        proxy.fail(fault);
        const res = await answered(broken, { url: '/rest/public/health' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ message: 'The database is not answering.' });
        proxy.heal();
        expect((await answered(broken, { url: '/rest/public/health' })).statusCode).toBe(200);
      });
    });
  }
});

describe('secured reference lists for the administration screens', () => {
  let readonly: Session;
  let user: Session;
  beforeAll(async () => {
    [readonly, user] = await Promise.all([signIn(api.app, 'readonly'), signIn(api.app, 'user')]);
  });

  it('need READ_USERS, and list inactive studies and relations with their flag', async () => {
    const paths = ['sites', 'countries', 'states/US', 'studies', 'site_relation'];
    for (const p of paths) {
      expect((await call(null, 'GET', `/rest/secure/reference/${p}`)).statusCode, p).toBe(401);
      expect((await call(user, 'GET', `/rest/secure/reference/${p}`)).statusCode, p).toBe(403);
      const ok = await call(readonly, 'GET', `/rest/secure/reference/${p}`);
      expect(ok.statusCode, p).toBe(200);
      expect(ok.headers['cache-control'], p).toBe('private, no-cache');
    }
    const study = await api.prisma.study.create({ data: { study: `ZZ-INACTIVE-${Date.now()}`, active: false } });
    try {
      const cachedStudies = (await call(readonly, 'GET', '/rest/secure/reference/studies')).json();
      expect(cachedStudies[0]).toEqual({ study: expect.any(String), active: expect.any(Boolean) });
      // The list is cached for its time-to-live; a fresh API instance reads the new row.
      const fresh = await startApi();
      try {
        const s = await signIn(fresh.app, 'readonly');
        const studies = (await caller(fresh.app)(s, 'GET', '/rest/secure/reference/studies')).json();
        expect(studies).toContainEqual({ study: study.study, active: false });
        const pub = (await fresh.app.inject({ method: 'GET', url: '/rest/public/studies' })).json();
        expect(pub).not.toContainEqual({ study: study.study });
      } finally {
        await fresh.close();
      }
    } finally {
      await api.prisma.study.delete({ where: { id: study.id } });
    }
  });
});
