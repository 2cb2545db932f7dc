/**
 * The secure registration calls (001 §7 Registrations): 'Request a User' (USER), the lists and one
 * registration (READ_USERS; a user's own registration is theirs to read), and the reviewer's save, approve,
 * deny and delete (WRITE_USERS: 200, or 202 while still processing, REQUEST-LIFECYCLE rule 6).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParamsSchema,
  FetchPageFieldsSchema,
  LOAD_ALL_PAGE_CHECK,
  loadAllOnFirstPage,
  ProxyRegistrationBodySchema,
  REGISTRATION_MESSAGES,
  RegistrationActionBodySchema,
  RegistrationActionParamsSchema,
  RegistrationActionQuerySchema,
  RegistrationDeleteQuerySchema,
  RegistrationListStatusSchema,
  RegistrationSchema,
  RegistrationUpdateBodySchema,
  PathIdSchema,
} from '@portal/contract';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { readableUserId } from '../../../shared/readable-user';
import { REVIEW_CONFIG, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { approveRegistration, deleteRegistration, denyRegistration, updateRegistration } from './actions';
import { fileRegistration } from './filing';
import { registrationView } from './view';
import {
  REGISTRATION_SORT_FIELDS,
  type RegistrationSelection,
  type RegistrationSortField,
  parseRegistrationRows,
  registrationListSql,
  registrationRowJson,
} from './list-sql';
import { answerList } from '../../../shared/stream-page';
import { queryRows } from '../../../shared/sql';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignature } from '../../../shared/request-signatures';

/** 001 §9: the registration list's default page 1, size 300; or the load-all call (000 §9). */
const ListQuery = FetchPageFieldsSchema.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${REGISTRATION_SORT_FIELDS.join('|')})(,(asc|desc))?$`))
    .optional(),
}).refine(loadAllOnFirstPage, LOAD_ALL_PAGE_CHECK);

const ACTION_ANSWERS = reviewAnswers(RegistrationSchema);
const UserIdParamsSchema = z.object({ userId: PathIdSchema });
const listOf = z.object({ content: z.array(RegistrationSchema) });
const NEWEST_FIRST = { field: 'sysdat', dir: 'desc' } as const;

export const reviewRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const view = (r: Parameters<typeof registrationView>[0]) => registrationView(r, deps);
  const views = (rows: unknown[]) => parseRegistrationRows(rows).map(view);
  const json = registrationRowJson(temporalUiOf(deps.cfg));
  /** Every registration of `sel`, newest first (the unpaged lists of 001 §7). */
  const whole = async (sel: RegistrationSelection) =>
    views(await queryRows(deps.prisma, registrationListSql(sel, NEWEST_FIRST).rows));

  app.post(
    '/rest/secure/user_registration',
    {
      config: { permission: 'USER', destructive: true },
      schema: {
        body: ProxyRegistrationBodySchema,
        response: { 200: RegistrationSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => {
      const actor = requireAuth(req);
      const me = await deps.prisma.portalUser.findUniqueOrThrow({ where: { id: actor.userId } });
      return fileRegistration(deps, req.body, {
        actor,
        phone: me.phoneNumber,
        phoneExt: me.phoneExtension,
        body: req.body,
      });
    },
  );

  app.get(
    '/rest/secure/user_registration/status/:status',
    {
      config: { permission: 'READ_USERS' },
      schema: {
        params: z.object({ status: RegistrationListStatusSchema }),
        querystring: ListQuery,
        response: { 200: pageSchema(RegistrationSchema), ...SECURE_ERRORS },
      },
    },
    async (req, reply) => {
      const [field, dir] = (req.query.sort ?? 'sysdat,desc').split(',') as [RegistrationSortField, 'asc' | 'desc'];
      const sel = { kind: 'status' as const, status: req.params.status };
      const build = (page?: { page: number; size: number }) => registrationListSql(sel, { field, dir }, page);
      return answerList(deps.prisma, reply, build, req.query, `${field},${dir}`, views, json);
    },
  );

  app.get(
    '/rest/secure/user_registration',
    { config: { permission: 'READ_USERS' }, schema: { response: { 200: listOf, ...SECURE_ERRORS } } },
    async () => ({ content: await whole({ kind: 'status', status: 'all' }) }),
  );

  // The signed-in user's own registration (the one their account was created from), any signed-in user.
  app.get(
    '/rest/secure/user_registration/user',
    { schema: { response: { 200: listOf, ...SECURE_ERRORS } } },
    async (req) => {
      return { content: await whole({ kind: 'user', portalUserId: requireAuth(req).userId }) };
    },
  );

  app.get(
    '/rest/secure/user_registration/user/:userId',
    { schema: { params: UserIdParamsSchema, response: { 200: listOf, 404: MessageSchema, ...SECURE_ERRORS } } },
    async (req) => {
      const message = REGISTRATION_MESSAGES.loadUserFailed;
      const portalUserId = await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message);
      return { content: await whole({ kind: 'user', portalUserId }) };
    },
  );

  app.get(
    '/rest/secure/user_registration/:id',
    {
      config: { permission: 'READ_USERS' },
      schema: { params: IdParamsSchema, response: readAnswers(RegistrationSchema) },
    },
    async (req) => {
      const row = await deps.prisma.registration.findUnique({ where: { id: req.params.id } });
      if (!row || row.registrationStatus === 'DELETED') throw notFound(REGISTRATION_MESSAGES.loadUserFailed);
      return withRequestSignature(deps, 'Registration', view(row));
    },
  );

  app.put(
    '/rest/secure/user_registration/:id',
    {
      config: REVIEW_CONFIG,
      schema: { params: IdParamsSchema, body: RegistrationUpdateBodySchema, response: ACTION_ANSWERS },
    },
    async (req, reply) =>
      processing(reply, await updateRegistration(deps, req, requireAuth(req), req.params.id, req.body)),
  );

  app.delete(
    '/rest/secure/user_registration/:id',
    {
      config: REVIEW_CONFIG,
      schema: { params: IdParamsSchema, querystring: RegistrationDeleteQuerySchema, response: ACTION_ANSWERS },
    },
    async (req, reply) =>
      processing(reply, await deleteRegistration(deps, req, requireAuth(req), req.params.id, req.query)),
  );

  app.put(
    '/rest/secure/user_registration_action/:action',
    {
      config: REVIEW_CONFIG,
      schema: {
        params: RegistrationActionParamsSchema,
        querystring: RegistrationActionQuerySchema,
        body: RegistrationActionBodySchema,
        response: ACTION_ANSWERS,
      },
    },
    async (req, reply) => {
      const actor = requireAuth(req);
      const answer =
        req.params.action === 'approve'
          ? await approveRegistration(deps, req, actor, req.body, req.query.ignoreValidationWarnings === 'true')
          : await denyRegistration(deps, req, actor, req.body);
      return processing(reply, answer);
    },
  );
};
