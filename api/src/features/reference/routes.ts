/**
 * Reference data (000 §3, §4 Reference data loading, §7 Reference data; 001 §7 Systems, Study roles): the
 * public lists, and their secured equivalents for the administration screens under
 * /rest/secure/reference/... (READ_USERS; paths not shown in the spec). Lists come from the in-memory
 * ReferenceCache with an ETag; `If-None-Match` is answered 304 without a query. A failed load answers 503
 * with the spec's 'Problem retrieving ...' text.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG_MESSAGES, CountryParamsSchema, MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { requireAuth } from '../auth/guard';
import type { Deps } from '../deps';
import { HttpError, notFound } from '../http/errors';
import { parseInput } from '../http/validate';
import {
  CONFIGURED_LISTS,
  REFERENCE_TTL_MS,
  type ReferenceCache,
  etagMatches,
  referenceCacheFor,
} from '../services/reference-cache';
import { siteView, studyRoleView, systemView } from '../services/views';

type Loader = (prisma: PrismaClient) => Promise<unknown>;

/** 000 §7: LAOs by laoCode first, then AOs by siteCode (an LAO is listed again as an AO; the UI hides those). */
const loadSites: Loader = async (prisma) => {
  const sites = await prisma.site.findMany({ orderBy: [{ siteCode: 'asc' }] });
  const laos = sites
    .filter((s) => s.siteType === 'LAO')
    .sort((a, b) => (a.laoCode ?? '').localeCompare(b.laoCode ?? ''));
  return [...laos, ...sites.filter((s) => s.siteType === 'AO')].map(siteView);
};

const loadCountries: Loader = async (prisma) =>
  prisma.country.findMany({ orderBy: { countryName: 'asc' }, select: { country: true, countryName: true } });

const loadStudies =
  (includeInactive: boolean): Loader =>
  async (prisma) => {
    const rows = await prisma.study.findMany({
      where: includeInactive ? {} : { active: true },
      orderBy: { study: 'asc' },
    });
    return rows.map((s) => (includeInactive ? { study: s.study, active: s.active } : { study: s.study }));
  };

const loadRelations =
  (includeInactive: boolean): Loader =>
  async (prisma) => {
    const rows = await prisma.siteRelation.findMany({
      where: includeInactive ? {} : { active: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({
      id: r.id,
      active: r.active,
      dchng: r.dchng.toISOString(),
      sysdat: r.sysdat.toISOString(),
      lao: { laoCode: r.laoCode },
      site: { siteCode: r.siteCode },
      study: { study: r.studyName },
    }));
  };

/** Serves `key` from the cache: 304 when the browser already holds this version, else the JSON body. */
async function sendList(
  cache: ReferenceCache,
  req: FastifyRequest,
  reply: FastifyReply,
  spec: { key: string; ttlMs: number; load: () => Promise<unknown>; failure: string; secured?: boolean },
) {
  let list;
  try {
    list = await cache.get(spec.key, spec.ttlMs, spec.load);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    req.log.error({ err }, 'reference data load failed');
    throw new HttpError(503, { message: spec.failure });
  }
  // Stored by the browser but revalidated on every use (the /rest default is no-store; see server.ts).
  reply.header('cache-control', spec.secured ? 'private, no-cache' : 'no-cache').header('etag', list.etag);
  if (etagMatches(req.headers['if-none-match'], list.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(list.body);
}

/** States of one country, or 404 when the country is unknown. */
async function statesOf(prisma: PrismaClient, cache: ReferenceCache, country: string) {
  const countries = JSON.parse(
    (await cache.get('countries', REFERENCE_TTL_MS.static, () => loadCountries(prisma))).body,
  ) as { country: string }[];
  if (!countries.some((c) => c.country === country)) throw notFound(MESSAGES.referenceData.states);
  return prisma.state.findMany({
    where: { country },
    orderBy: { stateName: 'asc' },
    select: { state: true, stateName: true },
  });
}

/** The public lists (no session needed). */
export function registerReferenceRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;
  const cache = referenceCacheFor(prisma);
  const fixed = REFERENCE_TTL_MS.static;
  const M = MESSAGES.referenceData;

  app.get('/rest/public/health', async () => {
    await prisma.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  });

  app.get('/rest/public/sites', (req, reply) =>
    sendList(cache, req, reply, { key: 'sites', ttlMs: fixed, load: () => loadSites(prisma), failure: M.sites }),
  );
  app.get('/rest/public/countries', (req, reply) =>
    sendList(cache, req, reply, {
      key: 'countries',
      ttlMs: fixed,
      load: () => loadCountries(prisma),
      failure: M.countries,
    }),
  );
  app.get('/rest/public/states/:country', (req, reply) => {
    const { country } = parseInput(CountryParamsSchema, req.params);
    return sendList(cache, req, reply, {
      key: `states:${country}`,
      ttlMs: fixed,
      load: () => statesOf(prisma, cache, country),
      failure: M.states,
    });
  });
  app.get('/rest/public/studies', (req, reply) =>
    sendList(cache, req, reply, {
      key: 'studies',
      ttlMs: fixed,
      load: () => loadStudies(false)(prisma),
      failure: M.studies,
    }),
  );
  app.get('/rest/public/site_relation', (req, reply) =>
    sendList(cache, req, reply, {
      key: 'relations',
      ttlMs: fixed,
      load: () => loadRelations(false)(prisma),
      failure: M.relations,
    }),
  );

  // 001 §7: the public lists of active study roles and systems, sorted by sort then name.
  app.get('/rest/public/user_registration/study_roles/', (req, reply) =>
    sendList(cache, req, reply, {
      key: `${CONFIGURED_LISTS.studyRoles}:public`,
      ttlMs: REFERENCE_TTL_MS.configured,
      load: async () =>
        (
          await prisma.studyRole.findMany({
            where: { inactive: false },
            include: { systems: true },
            orderBy: [{ sort: 'asc' }, { roleName: 'asc' }],
          })
        ).map(studyRoleView),
      failure: CONFIG_MESSAGES.studyRoles.loadAll,
    }),
  );
  app.get('/rest/public/user_registration/system_accesses/', (req, reply) =>
    sendList(cache, req, reply, {
      key: `${CONFIGURED_LISTS.systems}:public`,
      ttlMs: REFERENCE_TTL_MS.configured,
      load: async () =>
        (
          await prisma.systemAccess.findMany({
            where: { inactive: false },
            orderBy: [{ sort: 'asc' }, { systemName: 'asc' }],
          })
        ).map(systemView),
      failure: CONFIG_MESSAGES.systems.loadAll,
    }),
  );
}

/**
 * Secured equivalents for the administration screens (000 §7 "paths not shown"), READ_USERS:
 * /rest/secure/reference/{sites,countries,states/{country},studies,site_relation}. Studies and relations
 * include inactive ones (with their `active` flag). Study roles and systems are the system_mgmt lists.
 */
export function registerSecureReferenceRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;
  const cache = referenceCacheFor(prisma);
  const fixed = REFERENCE_TTL_MS.static;
  const M = MESSAGES.referenceData;
  const list =
    (key: string, load: () => Promise<unknown>, failure: string) => (req: FastifyRequest, reply: FastifyReply) => {
      requireAuth(req, 'READ_USERS');
      return sendList(cache, req, reply, { key, ttlMs: fixed, load, failure, secured: true });
    };

  app.get(
    '/reference/sites',
    list('sites', () => loadSites(prisma), M.sites),
  );
  app.get(
    '/reference/countries',
    list('countries', () => loadCountries(prisma), M.countries),
  );
  app.get(
    '/reference/studies',
    list('studies:all', () => loadStudies(true)(prisma), M.studies),
  );
  app.get(
    '/reference/site_relation',
    list('relations:all', () => loadRelations(true)(prisma), M.relations),
  );
  app.get('/reference/states/:country', (req, reply) => {
    requireAuth(req, 'READ_USERS');
    const { country } = parseInput(CountryParamsSchema, req.params);
    return sendList(cache, req, reply, {
      key: `states:${country}`,
      ttlMs: fixed,
      load: () => statesOf(prisma, cache, country),
      failure: M.states,
      secured: true,
    });
  });
}
