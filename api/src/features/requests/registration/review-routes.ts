/**
 * The secure registration calls (001 §7 Registrations): 'Request a User' (USER), the lists and one
 * registration (READ_USERS; a user's own registration is theirs to read), and the reviewer's save, approve,
 * deny and delete (WRITE_USERS: 200, or 202 while still processing, REQUEST-LIFECYCLE rule 6).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParamsSchema,
  PageQuerySchema,
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
import type { Prisma } from '@portal/db';
import { requireAuth } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { readableUserId } from '../../../shared/readable-user';
import { REVIEW_CONFIG, processing, readAnswers, reviewAnswers } from '../../../shared/request-routes';
import { pageWindow, toPage } from '../../../http/page';
import { MessageSchema, SECURE_ERRORS, pageSchema } from '../../../http/route-schemas';
import { approveRegistration, deleteRegistration, denyRegistration, updateRegistration } from './actions';
import { fileRegistration } from './filing';
import { LISTED_REGISTRATIONS, registrationView } from './view';

/** 001 §9: the registration list's default page 1, size 300. */
const ListQuery = PageQuerySchema.extend({
  size: PageQuerySchema.shape.size.default(300),
  sort: z
    .string()
    .regex(/^(sysdat|dchng|lastName|firstName|email|organizationName|registrationStatus)(,(asc|desc))?$/)
    .optional(),
});

const ACTION_ANSWERS = reviewAnswers(RegistrationSchema);
const UserIdParamsSchema = z.object({ userId: PathIdSchema });
const listOf = z.object({ content: z.array(RegistrationSchema) });
const newestFirst = [{ sysdat: 'desc' as const }, { id: 'desc' as const }];

export const reviewRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const view = (r: Parameters<typeof registrationView>[0]) => registrationView(r, deps);

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
    async (req) => {
      const { status } = req.params;
      const where: Prisma.RegistrationWhereInput = {
        AND: [
          LISTED_REGISTRATIONS,
          status === 'all' ? {} : { registrationStatus: status === 'pending' ? 'PENDING' : status },
        ],
      };
      const [field = 'sysdat', dir = 'desc'] = (req.query.sort ?? 'sysdat,desc').split(',');
      const [total, rows] = await Promise.all([
        deps.prisma.registration.count({ where }),
        deps.prisma.registration.findMany({
          where,
          orderBy: [{ [field]: dir }, { id: 'desc' }],
          ...pageWindow(req.query),
        }),
      ]);
      return toPage(rows.map(view), total, req.query, `${field},${dir}`);
    },
  );

  app.get(
    '/rest/secure/user_registration',
    { config: { permission: 'READ_USERS' }, schema: { response: { 200: listOf, ...SECURE_ERRORS } } },
    async () => ({
      content: (await deps.prisma.registration.findMany({ where: LISTED_REGISTRATIONS, orderBy: newestFirst })).map(
        view,
      ),
    }),
  );

  // The signed-in user's own registration (the one their account was created from), any signed-in user.
  app.get(
    '/rest/secure/user_registration/user',
    { schema: { response: { 200: listOf, ...SECURE_ERRORS } } },
    async (req) => {
      const actor = requireAuth(req);
      const rows = await deps.prisma.registration.findMany({
        where: { AND: [LISTED_REGISTRATIONS, { portalUserId: actor.userId }] },
        orderBy: newestFirst,
      });
      return { content: rows.map(view) };
    },
  );

  app.get(
    '/rest/secure/user_registration/user/:userId',
    { schema: { params: UserIdParamsSchema, response: { 200: listOf, 404: MessageSchema, ...SECURE_ERRORS } } },
    async (req) => {
      const message = REGISTRATION_MESSAGES.loadUserFailed;
      const userId = await readableUserId(deps.prisma, requireAuth(req), req.params.userId, message);
      const rows = await deps.prisma.registration.findMany({
        where: { AND: [LISTED_REGISTRATIONS, { portalUserId: userId }] },
        orderBy: newestFirst,
      });
      return { content: rows.map(view) };
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
      return view(row);
    },
  );

  app.put(
    '/rest/secure/user_registration/:id',
    {
      config: REVIEW_CONFIG,
      schema: { params: IdParamsSchema, body: RegistrationUpdateBodySchema, response: ACTION_ANSWERS },
    },
    async (req, reply) => processing(reply, await updateRegistration(deps, requireAuth(req), req.params.id, req.body)),
  );

  app.delete(
    '/rest/secure/user_registration/:id',
    {
      config: REVIEW_CONFIG,
      schema: { params: IdParamsSchema, querystring: RegistrationDeleteQuerySchema, response: ACTION_ANSWERS },
    },
    async (req, reply) => processing(reply, await deleteRegistration(deps, requireAuth(req), req.params.id, req.query)),
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
          ? await approveRegistration(deps, actor, req.body, req.query.ignoreValidationWarnings === 'true')
          : await denyRegistration(deps, actor, req.body);
      return processing(reply, answer);
    },
  );
};
