/**
 * Reference data (000 §3, §4 Reference data loading, §7 Reference data, §8 Reference data): the public lists
 * and their order, the secured equivalents (READ_USERS), the ETag / If-None-Match revalidation that answers
 * 304 without touching the database, and the 'Problem retrieving ...' answer when the database fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@portal/db';
import { MESSAGES, type Site } from '@portal/contract';
import { type Session, type TestApi, caller, signIn, startApi } from './config-support';

let api: TestApi;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  api = await startApi();
  call = caller(api.app);
});
afterAll(async () => api?.close());

/** A Prisma client that counts reads of each model and can make one fail. */
function counting(prisma: PrismaClient, counts: Map<string, number>, failing?: string): PrismaClient {
  return new Proxy(prisma, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || prop.startsWith('$') || typeof value !== 'object' || value === null) return value;
      return new Proxy(value, {
        get(model, method) {
          const fn = Reflect.get(model, method);
          if (typeof fn !== 'function') return fn;
          return (...args: unknown[]) => {
            counts.set(prop, (counts.get(prop) ?? 0) + 1);
            if (prop === failing) return Promise.reject(new Error('database down'));
            return fn.apply(model, args);
          };
        },
      });
    },
  });
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
  it('sends an ETag, answers If-None-Match with 304 and reads the database once', async () => {
    const counts = new Map<string, number>();
    const cached = await startApi({}, (p) => counting(p, counts));
    try {
      const first = await cached.app.inject({ method: 'GET', url: '/rest/public/sites' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const again = await cached.app.inject({
        method: 'GET',
        url: '/rest/public/sites',
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const weak = await cached.app.inject({
        method: 'GET',
        url: '/rest/public/sites',
        headers: { 'if-none-match': `"x", W/${etag}` },
      });
      expect(weak.statusCode).toBe(304);
      const plain = await cached.app.inject({ method: 'GET', url: '/rest/public/sites' });
      expect(plain.body).toBe(first.body);
      expect(counts.get('site')).toBe(1);
      // Other /rest answers stay uncached.
      expect((await cached.app.inject({ method: 'GET', url: '/rest/public/health' })).headers['cache-control']).toBe(
        'no-store',
      );
    } finally {
      await cached.close();
    }
  });

  it("answers a failed load with 503 and the spec's 'Problem retrieving ...' text", async () => {
    const broken = await startApi({}, (p) => counting(p, new Map(), 'study'));
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/rest/public/studies' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Problem retrieving Studies.' });
      expect(res.body).not.toMatch(/database down|at .*\.(ts|js):\d+/);
    } finally {
      await broken.close();
    }
  });
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
