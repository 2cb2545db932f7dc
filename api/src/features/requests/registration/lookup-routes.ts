/**
 * What the review screens look up (001 §2.4, §3; §7 user_management calls): account types, the active
 * portal roles, directory matches by email and by name, and proxy registration history (the signed-in
 * user's, or a user's for READ_USERS, 000 §7 user_registration/proxy).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_TYPE_LABELS,
  ACCOUNT_TYPES,
  AccountTypesSchema,
  LdapEmailParamsSchema,
  LdapMatchSchema,
  LdapNameParamsSchema,
  FetchPageFieldsSchema,
  LOAD_ALL_PAGE_CHECK,
  loadAllOnFirstPage,
  PortalRoleSchema,
  RegistrationSchema,
  IdParamsSchema,
  REGISTRATION_MESSAGES,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { readableUserId } from '../../../shared/readable-user';
import { portalRoleView, temporalUiOf } from '../../../shared/views';
import { matchesByEmail, matchesByName } from './directory-matches';
import { registrationView } from './view';
import { parseRegistrationRows, registrationListSql, registrationRowJson } from './list-sql';
import { answerList } from '../../../shared/stream-page';
import { withRequestSignatures } from '../../../shared/request-signatures';

/** Query page and size (or the load-all call, 000 §9) and sort: only sysdat, either way. */
const ProxyQuery = FetchPageFieldsSchema.extend({
  sort: z
    .string()
    .regex(/^sysdat(,(asc|desc))?$/)
    .optional(),
}).refine(loadAllOnFirstPage, LOAD_ALL_PAGE_CHECK);

export const lookupRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const json = registrationRowJson(temporalUiOf(deps.cfg));
  app.get(
    '/rest/secure/user_management/account_types',
    { config: { permission: 'READ_USERS' }, schema: { response: { 200: AccountTypesSchema, ...SECURE_ERRORS } } },
    async () => ({
      defaultAccountType: { id: 'external' as const },
      assignableAccountTypes: ACCOUNT_TYPES.map((id) => ({ id, name: ACCOUNT_TYPE_LABELS[id] })),
    }),
  );

  app.get(
    '/rest/secure/user_management/portal_roles',
    {
      config: { permission: 'READ_USERS' },
      schema: { response: { 200: z.array(PortalRoleSchema), ...SECURE_ERRORS } },
    },
    async () =>
      (
        await deps.prisma.portalRole.findMany({
          where: { inactive: false },
          orderBy: [{ sort: 'asc' }, { description: 'asc' }],
        })
      ).map(portalRoleView),
  );

  app.get(
    '/rest/secure/user_management/ldap/usersForEmail/:email',
    {
      config: { permission: 'READ_USERS' },
      schema: {
        params: LdapEmailParamsSchema,
        response: { 200: z.array(LdapMatchSchema), 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => matchesByEmail(deps, req.params.email),
  );

  app.get(
    '/rest/secure/user_management/ldap/usersForPersonName/:lastName/:firstName',
    {
      config: { permission: 'READ_USERS' },
      schema: {
        params: LdapNameParamsSchema,
        response: { 200: z.array(LdapMatchSchema), 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => matchesByName(deps, req.params.lastName, req.params.firstName),
  );

  /** One page of the registrations `proxyUserId` filed, or all of them streamed for the load-all size (000 §9). */
  const proxyHistory = (reply: FastifyReply, proxyUserId: number, q: z.infer<typeof ProxyQuery>) => {
    const dir = q.sort?.endsWith(',asc') ? 'asc' : 'desc';
    const build = (page?: { page: number; size: number }) =>
      registrationListSql({ kind: 'proxy', proxyUserId }, { field: 'sysdat', dir }, page);
    const views = (rows: unknown[]) => parseRegistrationRows(rows).map((r) => registrationView(r, deps));
    // With signatures on, the history carries its signatures (shared/request-signatures.ts).
    const signed =
      deps.cfg.SIGNATURES === 'on'
        ? (rows: ReturnType<typeof views>) => withRequestSignatures(deps, 'Registration', rows)
        : undefined;
    return answerList(deps.prisma, reply, build, q, `sysdat,${dir}`, views, json, signed);
  };

  app.get(
    '/rest/secure/user_management/user_registration/proxy',
    { schema: { querystring: ProxyQuery, response: { 200: pageSchema(RegistrationSchema), ...SECURE_ERRORS } } },
    async (req, reply) => proxyHistory(reply, requireAuth(req).userId, req.query),
  );

  app.get(
    '/rest/secure/user_management/user_registration/proxy/:id',
    {
      schema: {
        params: IdParamsSchema,
        querystring: ProxyQuery,
        response: { 200: pageSchema(RegistrationSchema), 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req, reply) => {
      // Another's or an unknown user's history is the unknown 404, as every own-record read (000 §8 text).
      const message = REGISTRATION_MESSAGES.loadUserProxyFailed;
      return proxyHistory(
        reply,
        await readableUserId(deps.prisma, requireAuth(req), req.params.id, message),
        req.query,
      );
    },
  );
};
