/**
 * Reference data (000 §3, §4 Reference data loading, §7 Reference data; 001 §7 Systems, Study roles): the
 * public lists, and their secured equivalents for the administration screens under
 * /rest/secure/reference/... (READ_USERS; paths not shown in the spec). Lists come from the in-memory
 * ReferenceCache with an ETag, dropped in every API process when PostgreSQL announces a change to their tables
 * (shared/reference-notify.ts); `If-None-Match` is answered 304 without a query. A failed load, or one that
 * has no answer within LOAD_DEADLINE_MS (a frozen database), answers 503 with the spec's 'Problem retrieving
 * ...' text.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminStudySchema,
  CONFIG_MESSAGES,
  CountryParamsSchema,
  CountrySchema,
  MESSAGES,
  SiteRelationSchema,
  SiteSchema,
  StateSchema,
  StudyRoleSchema,
  StudySchema,
  SystemSchema,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { Deps } from '../../deps';
import { HttpError, notFound } from '../../http/errors';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import {
  CONFIGURED_LISTS,
  REFERENCE_TTL_MS,
  type ReferenceCache,
  etagMatches,
  referenceCacheFor,
} from '../../shared/reference-cache';
import { listenForReferenceChanges } from '../../shared/reference-notify';
import { studyRoleView, systemView } from '../../shared/views';
import { siteView } from './views';
import { withinDeadline } from '../../shared/deadline';

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

/** The secured lists' rows include the inactive ones; the public lists' only the active. */
const activeUnless = (includeInactive: boolean) => (includeInactive ? {} : { active: true });

const loadStudies =
  (includeInactive: boolean): Loader =>
  async (prisma) => {
    const rows = await prisma.study.findMany({ where: activeUnless(includeInactive), orderBy: { study: 'asc' } });
    return rows.map((s) => (includeInactive ? { study: s.study, active: s.active } : { study: s.study }));
  };

const loadRelations =
  (includeInactive: boolean): Loader =>
  async (prisma) => {
    const rows = await prisma.siteRelation.findMany({ where: activeUnless(includeInactive), orderBy: { id: 'asc' } });
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

/** 001 §7: the active study roles with their systems, sorted by sort then name. */
const loadActiveStudyRoles: Loader = async (prisma) =>
  (
    await prisma.studyRole.findMany({
      where: { inactive: false },
      include: { systems: true },
      orderBy: [{ sort: 'asc' }, { roleName: 'asc' }],
    })
  ).map(studyRoleView);

/** 001 §7: the active systems, sorted by sort then name. */
const loadActiveSystems: Loader = async (prisma) =>
  (
    await prisma.systemAccess.findMany({
      where: { inactive: false },
      orderBy: [{ sort: 'asc' }, { systemName: 'asc' }],
    })
  ).map(systemView);

/**
 * How long (ms) a list's load may take before the answer is 503 (issue 21): a database that accepts the
 * connection but never answers must not hang the page. A late load still fills the cache.
 */
const LOAD_DEADLINE_MS = 10_000;

/** How long (ms) the health check waits for the database. */
const HEALTH_DEADLINE_MS = 5_000;
const DATABASE_DOWN = 'The database is not answering.';

/** Serves `key` from the cache: 304 when the browser already holds this version, else the JSON body. */
async function sendList(
  cache: ReferenceCache,
  req: FastifyRequest,
  reply: FastifyReply,
  spec: { key: string; ttlMs: number; load: () => Promise<unknown>; failure: string; secured?: boolean },
) {
  let list;
  try {
    list = await withinDeadline(cache.get(spec.key, spec.ttlMs, spec.load), LOAD_DEADLINE_MS);
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

/** A list answer: the rows (200), 304 when the browser holds this version, 503 when the load failed. */
const listOf = (row: z.ZodType) => ({ 200: z.array(row), 304: z.null(), 503: MessageSchema });

/** The public lists (no session needed) and their secured equivalents, one plugin (000 §7 Reference data). */
export const referenceRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const cache = referenceCacheFor(prisma);
  // Every process drops its lists when PostgreSQL announces a change to their tables (issue 24).
  const listener = listenForReferenceChanges(deps.cfg.DATABASE_URL, cache, (event, err) =>
    event === 'lost'
      ? app.log.warn({ err }, 'reference listener: connection lost, lists kept for their time-to-live')
      : app.log.info('reference listener: listening'),
  );
  await listener.ready;
  app.addHook('onClose', () => listener.close());
  const fixed = REFERENCE_TTL_MS.static;
  const M = MESSAGES.referenceData;

  /** The handler of one list: `secured` lists are the administration screens' (private to the browser). */
  const list =
    (key: string, ttlMs: number, load: Loader, failure: string, secured = false) =>
    (req: FastifyRequest, reply: FastifyReply) =>
      sendList(cache, req, reply, { key, ttlMs, load: () => load(prisma), failure, secured });
  /** The states of `country` (404 for an unknown country), public or secured. */
  const states = (req: FastifyRequest, reply: FastifyReply, country: string, secured: boolean) =>
    list(`states:${country}`, fixed, () => statesOf(prisma, cache, country), M.states, secured)(req, reply);

  // The process answers and its database does, within HEALTH_DEADLINE_MS: a stopped or frozen database is a
  // 503 naming it, never a 500 or a hung probe (/readyz names every dependency).
  app.get(
    '/rest/public/health',
    { schema: { response: { 200: z.object({ status: z.literal('ok') }), 503: MessageSchema } } },
    async (req) => {
      try {
        await withinDeadline(prisma.$queryRaw`SELECT 1`, HEALTH_DEADLINE_MS);
      } catch (err) {
        req.log.warn({ err }, 'health: the database did not answer');
        throw new HttpError(503, { message: DATABASE_DOWN });
      }
      return { status: 'ok' as const };
    },
  );

  app.get('/rest/public/sites', { schema: { response: listOf(SiteSchema) } }, list('sites', fixed, loadSites, M.sites));
  app.get(
    '/rest/public/countries',
    { schema: { response: listOf(CountrySchema) } },
    list('countries', fixed, loadCountries, M.countries),
  );
  app.get(
    '/rest/public/states/:country',
    { schema: { params: CountryParamsSchema, response: { ...listOf(StateSchema), 404: MessageSchema } } },
    (req, reply) => states(req, reply, req.params.country, false),
  );
  app.get(
    '/rest/public/studies',
    { schema: { response: listOf(StudySchema) } },
    list('studies', fixed, loadStudies(false), M.studies),
  );
  app.get(
    '/rest/public/site_relation',
    { schema: { response: listOf(SiteRelationSchema) } },
    list('relations', fixed, loadRelations(false), M.relations),
  );

  // 001 §7: the public lists of active study roles and systems, sorted by sort then name.
  const configured = REFERENCE_TTL_MS.configured;
  app.get(
    '/rest/public/user_registration/study_roles/',
    { schema: { response: listOf(StudyRoleSchema) } },
    list(`${CONFIGURED_LISTS.studyRoles}:public`, configured, loadActiveStudyRoles, CONFIG_MESSAGES.studyRoles.loadAll),
  );
  app.get(
    '/rest/public/user_registration/system_accesses/',
    { schema: { response: listOf(SystemSchema) } },
    list(`${CONFIGURED_LISTS.systems}:public`, configured, loadActiveSystems, CONFIG_MESSAGES.systems.loadAll),
  );

  /*
   * Secured equivalents for the administration screens (000 §7 "paths not shown"), READ_USERS:
   * /rest/secure/reference/{sites,countries,states/{country},studies,site_relation}. Studies and relations
   * include inactive ones (with their `active` flag). Study roles and systems are the system_mgmt lists.
   */
  const secured = { permission: 'READ_USERS' } as const;
  const secureList = (row: z.ZodType) => ({ ...listOf(row), ...SECURE_ERRORS });

  app.get(
    '/rest/secure/reference/sites',
    { config: secured, schema: { response: secureList(SiteSchema) } },
    list('sites', fixed, loadSites, M.sites, true),
  );
  app.get(
    '/rest/secure/reference/countries',
    { config: secured, schema: { response: secureList(CountrySchema) } },
    list('countries', fixed, loadCountries, M.countries, true),
  );
  app.get(
    '/rest/secure/reference/studies',
    { config: secured, schema: { response: secureList(AdminStudySchema) } },
    list('studies:all', fixed, loadStudies(true), M.studies, true),
  );
  app.get(
    '/rest/secure/reference/site_relation',
    { config: secured, schema: { response: secureList(SiteRelationSchema) } },
    list('relations:all', fixed, loadRelations(true), M.relations, true),
  );
  app.get(
    '/rest/secure/reference/states/:country',
    {
      config: secured,
      schema: { params: CountryParamsSchema, response: { ...secureList(StateSchema), 404: MessageSchema } },
    },
    (req, reply) => states(req, reply, req.params.country, true),
  );
};
