/**
 * The hostile-input route walker (issue 13): every route of the API's route catalogue (so a route added
 * later is walked without editing this file), as every persona (anonymous, USER, READ_USERS, WRITE_USERS,
 * ADMIN), with inputs generated from the route's declared params, query and body schemas and then mutated
 * (arbitraries.ts). With every dependency up, no answer may be 5xx, no body may carry a stack trace, a
 * server path or a raw database or directory error, and a refused request (4xx, 304) may not change a single
 * row (a log of every row written to any table, the audit trail included, kept by triggers in the clone).
 *
 * Fixed seed, bounded runs (a fixed budget shared among the routes, see RUNS). It acts on its own clone of the seeded
 * database (dropped afterwards) with throwaway personas; routes marked `destructive` in their metadata get
 * only throwaway records' ids (and ids no record has), and sign-in only throwaway or unknown names, so no
 * demo account in the shared directory is ever locked.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { Client, Connection } from '@temporalio/client';
import { buildServer, loadApiConfig, type CatalogRoute } from '@portal/api';
import { createPrisma, type PrismaClient } from '@portal/db';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { createTestUser, type TestUser } from '../auth-helpers';
import { createOutstandingRequest } from '../config-support';
import { startApi, type TestApi } from '../harness';
import {
  arbitraryOf,
  DEEP,
  DEEP_JSON,
  HOSTILE_SEGMENTS,
  type Json,
  type KeyOverrides,
  mutate,
  mutationArb,
} from './arbitraries';
import {
  type ChangeMark,
  type ChangeWatch,
  cloneDatabase,
  leakIn,
  type PersonaName,
  personaPool,
  watchChanges,
} from './walker-support';

const SEED = 13_2026;
const PERSONAS: PersonaName[] = ['anonymous', 'user', 'readonly', 'reviewer', 'admin'];
const DEMO_NAMES = new Set(DEMO_ACCOUNTS.flatMap((a) => [a.username, `${a.username}@portal.test`]));

/** The catalogue, read from a server built without services (as route-catalog.test.ts does). */
async function readCatalog(): Promise<CatalogRoute[]> {
  const cfg = loadApiConfig({
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    LDAP_URL: 'ldap://127.0.0.1:1',
    LDAP_ADMIN_PASSWORD: 'unused',
    ELEARNING_URL_KEY: 'unused-catalogue-elearning-url-key',
    LOG_LEVEL: 'silent',
  });
  const connection = Connection.lazy({ address: cfg.TEMPORAL_ADDRESS });
  const app = await buildServer({
    cfg,
    prisma: createPrisma(cfg.DATABASE_URL),
    temporal: new Client({ connection }),
    directory: cfg,
  });
  await app.ready();
  const routes = [...app.routeCatalog];
  await app.close();
  await connection.close();
  return routes;
}

const catalog = await readCatalog();

/**
 * Generated cases per route: the walk's whole budget (HOSTILE_BUDGET cases, 1,500 by default) shared among
 * the routes, at most HOSTILE_RUNS (10) and at least 3 each, so the walk keeps its share of the suite's time
 * as routes are added. Every route still gets its fixed examples besides.
 */
const RUNS = Math.max(
  3,
  Math.min(
    Number(process.env.HOSTILE_RUNS ?? 10),
    Math.floor(Number(process.env.HOSTILE_BUDGET ?? 1500) / catalog.length),
  ),
);

interface Throwaway {
  portalRole: number;
  studyRole: number;
  system: number;
  request: number;
  /** A resource category and a dashboard item of the walk's own (issue 23). */
  resourceCategory: number;
  dashboardItem: number;
  user: TestUser;
  /** Signs in with wrong passwords only: may lock. */
  target: TestUser;
}

let api: TestApi;
let prisma: PrismaClient;
let dropClone: () => Promise<void>;
let personas: ReturnType<typeof personaPool>;
let changes: ChangeWatch;
let throwaway: Throwaway;

beforeAll(async () => {
  const clone = await cloneDatabase();
  dropClone = clone.drop;
  prisma = createPrisma(clone.url);
  api = await startApi(
    {
      DATABASE_URL: clone.url,
      TEMPORAL_TASK_QUEUE: `hostile-${crypto.randomBytes(4).toString('hex')}`,
      REVIEW_DEADLINE_MS: '100',
      RATE_LIMIT_SIGN_IN_MAX: '100000',
      RATE_LIMIT_FORGOT_PASSWORD_MAX: '100000',
    },
    () => prisma,
  );
  changes = await watchChanges(prisma);
  personas = personaPool(api.app, prisma, api.directory);
  const tag = crypto.randomBytes(3).toString('hex');
  const system = await prisma.systemAccess.create({ data: { systemName: `Hostile system ${tag}` } });
  const [user, target] = await Promise.all([
    createTestUser({ prisma, directory: api.directory }, 'hxthrow'),
    createTestUser({ prisma, directory: api.directory }, 'hxtarget'),
  ]);
  const category = await prisma.resourceCategory.create({ data: { name: `Hostile ${tag}` } });
  throwaway = {
    portalRole: (await prisma.portalRole.create({ data: { description: `Hostile ${tag}`, permissions: ['USER'] } })).id,
    studyRole: (
      await prisma.studyRole.create({
        data: { roleName: `Hostile ${tag}`, description: 'x', systems: { create: [{ systemId: system.id }] } },
      })
    ).id,
    system: system.id,
    request: (
      await createOutstandingRequest(prisma, user.user.id, { roleName: `Hostile ${tag}`, systemAccessIds: [system.id] })
    ).id,
    resourceCategory: category.id,
    dashboardItem: (
      await prisma.dashboardItem.create({
        data: { kind: 'LINK', title: `Hostile ${tag}`, url: 'https://www.example.org', categoryId: category.id },
      })
    ).id,
    user,
    target,
  };
}, 240_000);

afterAll(async () => {
  await api?.close();
  await prisma?.$disconnect();
  await dropClone?.();
});

/** Ids no record has, or that no column can hold, or that are not ids at all. */
const BAD_IDS: Json[] = [0, -1, 2 ** 31, 2 ** 53, 2147483647, '1', true, [1]];

/** The throwaway record a destructive route's ids must name, by the route's path. */
function recordIdOf(url: string): number {
  if (url.includes('/portal_roles')) return throwaway.portalRole;
  if (url.includes('/study_role')) return throwaway.studyRole;
  if (url.includes('/system_access')) return throwaway.system;
  if (url.includes('mod_request') || url.includes('review_access_change')) return throwaway.request;
  if (url.includes('/resource_categories')) return throwaway.resourceCategory;
  if (url.includes('/dashboard_items') || url.includes('/dashboard/resources/items')) return throwaway.dashboardItem;
  return throwaway.user.user.id;
}

/** Stands for the acting persona's own user id in a generated body (filled in when the case runs). */
const OWN = '$own';

/** Key overrides: ids from the pools; sign-in names never a demo account's. */
function overridesFor(route: CatalogRoute): KeyOverrides {
  const own = recordIdOf(route.url);
  const id = route.destructive
    ? fc.constantFrom<Json>(own, ...BAD_IDS)
    : fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constantFrom<Json>(own, ...BAD_IDS));
  const names = [throwaway.target.username, throwaway.target.email, 'nobody-at-all', 'NoBody@Example.org'];
  return {
    id,
    portalUserId: fc.constantFrom<Json>(OWN, OWN, throwaway.user.user.id, ...BAD_IDS),
    username: fc.oneof(
      fc.constantFrom(...names),
      fc.string({ maxLength: 20 }).filter((s) => !DEMO_NAMES.has(s)),
    ),
    emailAddress: fc.oneof(fc.constantFrom('nobody@example.org', throwaway.user.email), fc.emailAddress()),
  };
}

/** A path segment for parameter `name`: the declared value (encoded) or an attacker's one. */
function segmentArb(name: string, declared: fc.Arbitrary<Json>): fc.Arbitrary<string> {
  const own = name === 'uuid' ? fc.constant(throwaway.user.user.uuid ?? '') : declared.map((v) => String(v));
  return fc.oneof(
    { arbitrary: own.map((v) => encodeURIComponent(v)), weight: 3 },
    { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 2 },
  );
}

interface Case {
  persona: PersonaName;
  params: Record<string, string>;
  query: Json;
  body: Json | undefined;
  bodyMutation: Parameters<typeof mutate>[1];
  queryMutation: Parameters<typeof mutate>[1];
}

function caseArb(route: CatalogRoute): fc.Arbitrary<Case> {
  const schema = route.schema ?? {};
  const overrides = overridesFor(route);
  const paramsShape = ((schema.params as z.ZodObject | undefined)?.shape ?? {}) as Record<string, z.ZodType>;
  const params = fc.record(
    Object.fromEntries(
      Object.entries(paramsShape).map(([k, v]) => [k, segmentArb(k, overrides[k] ?? arbitraryOf(v, overrides))]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const query = schema.querystring ? arbitraryOf(schema.querystring as z.ZodType, overrides) : fc.constant<Json>({});
  const body = schema.body
    ? fc.option(arbitraryOf(schema.body as z.ZodType, overrides), { nil: undefined, freq: 8 })
    : fc.constant(undefined);
  return fc.record({
    persona: fc.constantFrom(...PERSONAS),
    params,
    query,
    body,
    bodyMutation: mutationArb(true),
    queryMutation: mutationArb(false),
  });
}

/** The URL of a case: path parameters filled in, the (mutated) query flattened into a query string. */
function urlOf(route: CatalogRoute, c: Case): string {
  const path = route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => c.params[name] ?? '1');
  const q = mutate(c.query, c.queryMutation);
  if (!q || typeof q !== 'object' || Array.isArray(q)) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    for (const item of [v].flat()) search.append(k, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Cases every body route gets besides the generated ones (issue 21), as an administrator on the route's own
 * throwaway record: the whole body replaced by a value nested 5,000 levels deep, and the body sent as
 * JSON null (a drop at the root).
 */
function fixedExamples(route: CatalogRoute): [Case][] {
  if (!route.schema?.body) return [];
  const paramsShape = ((route.schema.params as z.ZodObject | undefined)?.shape ?? {}) as Record<string, z.ZodType>;
  const params = Object.fromEntries(
    Object.keys(paramsShape).map((k) => [
      k,
      encodeURIComponent(k === 'uuid' ? (throwaway.user.user.uuid ?? '') : String(recordIdOf(route.url))),
    ]),
  );
  const base = { persona: 'admin' as const, params, query: {}, body: {}, queryMutation: { kind: 'none' as const } };
  return [
    [{ ...base, bodyMutation: { kind: 'replace', pick: 0, value: DEEP } }],
    [{ ...base, bodyMutation: { kind: 'drop', pick: 0 } }],
  ];
}

const refused = (status: number) => status >= 400 || status === 304;

/**
 * Waits, after an accepted POST /rest/public/forgot_password for the address of an active user, until the
 * reset link it writes in the background (after answering) is committed: left running, that write would land
 * in a later refused case's window and be taken for that case's. The link is written in one transaction, so
 * seeing it in the change log means the write is over (the mail that follows writes no row).
 */
async function settleForgotPassword(route: CatalogRoute, status: number, sent: unknown, since: ChangeMark) {
  if (route.url !== '/rest/public/forgot_password' || refused(status)) return;
  const email = (sent as { emailAddress?: unknown }).emailAddress;
  if (typeof email !== 'string') return;
  const user = await prisma.portalUser.findFirst({
    where: { email: { equals: email, mode: 'insensitive' }, inactive: false },
  });
  if (!user) return;
  const deadline = Date.now() + 15_000;
  while (!(await changes.changedSince(since)).includes('PasswordLink')) {
    if (Date.now() > deadline) throw new Error(`forgot_password wrote no reset link for ${email} within 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Answers seen, by persona and status: the walk must reach the handlers, not only bounce off the guards. */
const seen = new Map<string, number>();
const tally = (persona: PersonaName, status: number) =>
  seen.set(`${persona} ${status}`, (seen.get(`${persona} ${status}`) ?? 0) + 1);

describe('every route, every persona, hostile input (issue 13)', () => {
  it('walks a catalogue that holds every feature', () => {
    expect(catalog.length).toBeGreaterThan(40);
  });

  for (const [index, route] of catalog.entries()) {
    it(`${route.method} ${route.url}${route.destructive ? ' (destructive)' : ''}`, async () => {
      await fc.assert(
        fc.asyncProperty(caseArb(route), async (c) => {
          let persona = await personas.get(c.persona);
          if (route.destructive && persona.session) {
            const alive = await api.app.inject({
              method: 'GET',
              url: '/rest/secure/token/refresh',
              headers: { cookie: persona.session.cookie, 'x-xsrf-token': persona.session.xsrf },
            });
            if (alive.statusCode !== 200) persona = await personas.fresh(c.persona);
          }
          const body = c.body === undefined ? undefined : mutate(c.body, c.bodyMutation);
          const ownId = String(persona.user?.user.id ?? throwaway.user.user.id);
          const payload =
            body === undefined
              ? undefined
              : JSON.stringify(body).replaceAll(`"${OWN}"`, ownId).replaceAll(`"${DEEP}"`, DEEP_JSON);
          const headers: Record<string, string> = {};
          if (persona.session) {
            headers.cookie = persona.session.cookie;
            headers['x-xsrf-token'] = persona.session.xsrf;
          }
          if (payload !== undefined) headers['content-type'] = 'application/json';
          const before = await changes.mark();
          const res = await api.app.inject({
            method: route.method as 'GET',
            url: urlOf(route, c),
            headers,
            ...(payload === undefined ? {} : { payload }),
          });
          const what = `${route.method} ${urlOf(route, c)} as ${c.persona}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          tally(c.persona, res.statusCode);
          expect(res.statusCode, what).toBeLessThan(500);
          expect(leakIn(res.body), what).toBeNull();
          // Issue 21: a body that its route's schema refuses (JSON null included; an absent one is read as {})
          // must be refused too, never read as something else that validates (null once saved defaults).
          const sent = payload === undefined ? {} : (JSON.parse(payload) as unknown);
          const bodyValid = !route.schema?.body || (route.schema.body as z.ZodType).safeParse(sent).success;
          if (!bodyValid) expect(refused(res.statusCode), `a body that does not validate: ${what}`).toBe(true);
          if (refused(res.statusCode)) expect(await changes.changedSince(before), what).toEqual([]);
          await settleForgotPassword(route, res.statusCode, sent, before);
        }),
        // A seed of its own per route: with one seed for all, every route drew the same persona sequence, and
        // with few runs per route a persona could be drawn for none of them.
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true, examples: fixedExamples(route) },
      );
    });
  }

  it('reached the handlers as every persona (accepted calls, validation refusals, unknown records)', () => {
    const count = (pred: (persona: string, status: number) => boolean) =>
      [...seen].filter(([k]) => pred(k.split(' ')[0]!, Number(k.split(' ')[1]))).reduce((n, [, v]) => n + v, 0);
    for (const persona of PERSONAS)
      expect(
        count((p, s) => p === persona && s < 300),
        persona,
      ).toBeGreaterThan(0);
    expect(count((_p, s) => s === 422)).toBeGreaterThan(RUNS);
    expect(count((_p, s) => s === 404)).toBeGreaterThan(0);
    expect(count((p, s) => p !== 'anonymous' && s === 403)).toBeGreaterThan(0);
  });
});
