/**
 * Reference data (000 §3, §4 Reference data loading, §7 Reference data; 001 §7 Systems, Study roles): the
 * public lists, and their secured equivalents for the administration screens under
 * /rest/secure/reference/... (READ_USERS; paths not shown in the spec). Lists come from the in-memory
 * ReferenceCache with an ETag; `If-None-Match` is answered 304 without a query. A failed load answers 503
 * with the spec's 'Problem retrieving ...' text.
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
import { studyRoleView, systemView } from '../../shared/views';
import { siteView } from './views';

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

/** A list answer: the rows (200), 304 when the browser holds this version, 503 when the load failed. */
const listOf = (row: z.ZodType) => ({ 200: z.array(row), 304: z.null(), 503: MessageSchema });

/** The public lists (no session needed) and their secured equivalents, one plugin (000 §7 Reference data). */
export const referenceRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const cache = referenceCacheFor(prisma);
  const fixed = REFERENCE_TTL_MS.static;
  const M = MESSAGES.referenceData;

  app.get('/rest/public/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => {
    await prisma.$queryRaw`SELECT 1`;
    return { status: 'ok' as const };
  });

  app.get('/rest/public/sites', { schema: { response: listOf(SiteSchema) } }, (req, reply) =>
    sendList(cache, req, reply, { key: 'sites', ttlMs: fixed, load: () => loadSites(prisma), failure: M.sites }),
  );
  app.get('/rest/public/countries', { schema: { response: listOf(CountrySchema) } }, (req, reply) =>
    sendList(cache, req, reply, {
      key: 'countries',
      ttlMs: fixed,
      load: () => loadCountries(prisma),
      failure: M.countries,
    }),
  );
  app.get(
    '/rest/public/states/:country',
    { schema: { params: CountryParamsSchema, response: { ...listOf(StateSchema), 404: MessageSchema } } },
    (req, reply) =>
      sendList(cache, req, reply, {
        key: `states:${req.params.country}`,
        ttlMs: fixed,
        load: () => statesOf(prisma, cache, req.params.country),
        failure: M.states,
      }),
  );
  app.get('/rest/public/studies', { schema: { response: listOf(StudySchema) } }, (req, reply) =>
    sendList(cache, req, reply, {
      key: 'studies',
      ttlMs: fixed,
      load: () => loadStudies(false)(prisma),
      failure: M.studies,
    }),
  );
  app.get('/rest/public/site_relation', { schema: { response: listOf(SiteRelationSchema) } }, (req, reply) =>
    sendList(cache, req, reply, {
      key: 'relations',
      ttlMs: fixed,
      load: () => loadRelations(false)(prisma),
      failure: M.relations,
    }),
  );

  // 001 §7: the public lists of active study roles and systems, sorted by sort then name.
  app.get(
    '/rest/public/user_registration/study_roles/',
    { schema: { response: listOf(StudyRoleSchema) } },
    (req, reply) =>
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
  app.get(
    '/rest/public/user_registration/system_accesses/',
    { schema: { response: listOf(SystemSchema) } },
    (req, reply) =>
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

  /*
   * Secured equivalents for the administration screens (000 §7 "paths not shown"), READ_USERS:
   * /rest/secure/reference/{sites,countries,states/{country},studies,site_relation}. Studies and relations
   * include inactive ones (with their `active` flag). Study roles and systems are the system_mgmt lists.
   */
  const secured = { permission: 'READ_USERS' } as const;
  const secureList = (row: z.ZodType) => ({ ...listOf(row), ...SECURE_ERRORS });
  const list =
    (key: string, load: () => Promise<unknown>, failure: string) => (req: FastifyRequest, reply: FastifyReply) =>
      sendList(cache, req, reply, { key, ttlMs: fixed, load, failure, secured: true });

  app.get(
    '/rest/secure/reference/sites',
    { config: secured, schema: { response: secureList(SiteSchema) } },
    list('sites', () => loadSites(prisma), M.sites),
  );
  app.get(
    '/rest/secure/reference/countries',
    { config: secured, schema: { response: secureList(CountrySchema) } },
    list('countries', () => loadCountries(prisma), M.countries),
  );
  app.get(
    '/rest/secure/reference/studies',
    { config: secured, schema: { response: secureList(AdminStudySchema) } },
    list('studies:all', () => loadStudies(true)(prisma), M.studies),
  );
  app.get(
    '/rest/secure/reference/site_relation',
    { config: secured, schema: { response: secureList(SiteRelationSchema) } },
    list('relations:all', () => loadRelations(true)(prisma), M.relations),
  );
  app.get(
    '/rest/secure/reference/states/:country',
    {
      config: secured,
      schema: { params: CountryParamsSchema, response: { ...secureList(StateSchema), 404: MessageSchema } },
    },
    (req, reply) =>
      sendList(cache, req, reply, {
        key: `states:${req.params.country}`,
        ttlMs: fixed,
        load: () => statesOf(prisma, cache, req.params.country),
        failure: M.states,
        secured: true,
      }),
  );
};
