/**
 * User access records (000 §7 "User access records", base /rest/secure/user_access): GET every record, one
 * record, one revision (READ_USERS); GET one user's records (READ_USERS); POST a record, PUT a record, PUT a
 * user's whole access (WRITE_USERS; 422 with REQUEST_IN_PROGRESS while the user has an open access-change
 * request, fieldErrors and STALE_VERSION; 304 when nothing changes). The signed-in user's own records
 * (GET .../user) are the profile feature's. GET user/{portalUserId}/provenance (issue 25): why the person holds
 * each active record (the person, READ_USERS or a campaign reviewer of theirs; provenance.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessProvenanceSchema,
  CreateUserAccessBodySchema,
  IdParamsSchema,
  PortalUserIdParamsSchema,
  ReplaceUserAccessBodySchema,
  UpdateUserAccessBodySchema,
  UserAccessContentSchema,
  UserAccessRevisionParamsSchema,
  UserAccessSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import { signatureFor } from '../../auth/signature-guard';
import type { Deps } from '../../deps';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { accessProvenanceOf, assertMayReadProvenance } from './provenance';
import {
  createAccess,
  getAccess,
  getAccessRevision,
  listAllAccess,
  replaceUserAccess,
  updateAccess,
  userAccessOf,
} from './service';

const BASE = '/rest/secure/user_access';
const READ = { permission: 'READ_USERS' } as const;
const WRITE = { permission: 'WRITE_USERS', destructive: true } as const;
const one = { 200: UserAccessSchema, 404: MessageSchema, ...SECURE_ERRORS };
const saved = { 200: UserAccessSchema, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS };

export const userAccessRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;

  app.get(BASE, { config: READ, schema: { response: { 200: z.array(UserAccessSchema), ...SECURE_ERRORS } } }, () =>
    listAllAccess(prisma),
  );

  app.get(
    `${BASE}/user/:portalUserId`,
    {
      config: READ,
      schema: {
        params: PortalUserIdParamsSchema,
        response: { 200: UserAccessContentSchema, 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => ({ content: await userAccessOf(prisma, req.params.portalUserId) }),
  );

  app.get(
    `${BASE}/user/:portalUserId/provenance`,
    {
      // Signed in; who may read whose history is checked against the stored rows (assertMayReadProvenance).
      config: { permission: 'USER' },
      schema: {
        params: PortalUserIdParamsSchema,
        response: { 200: AccessProvenanceSchema, 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => {
      const id = req.params.portalUserId;
      await assertMayReadProvenance(prisma, deps.cfg.ACCESS_REVIEW_STUDY_ROLE, requireAuth(req), id);
      return accessProvenanceOf(prisma, id, { signatures: deps.cfg.SIGNATURES === 'on' });
    },
  );

  app.get(`${BASE}/:id`, { config: READ, schema: { params: IdParamsSchema, response: one } }, (req) =>
    getAccess(prisma, req.params.id),
  );

  app.get(
    `${BASE}/:id/:revisionNo`,
    { config: READ, schema: { params: UserAccessRevisionParamsSchema, response: one } },
    (req) => getAccessRevision(prisma, req.params.id, req.params.revisionNo),
  );

  // Every write changes the person's access (or answers 304): signed USER_ACCESS_EDIT when SIGNATURES=on.
  const signed = (req: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(req);
    return signatureFor(deps, req, auth, ['USER_ACCESS_EDIT']).then((signature) => ({ auth, signature }));
  };

  app.post(BASE, { config: WRITE, schema: { body: CreateUserAccessBodySchema, response: saved } }, async (req) => {
    const { auth, signature } = await signed(req);
    return createAccess(prisma, auth, req.body, signature);
  });

  app.put(
    `${BASE}/:id`,
    { config: WRITE, schema: { params: IdParamsSchema, body: UpdateUserAccessBodySchema, response: saved } },
    async (req) => {
      const { auth, signature } = await signed(req);
      return updateAccess(prisma, auth, req.params.id, req.body, signature);
    },
  );

  app.put(
    `${BASE}/user/:portalUserId`,
    {
      config: WRITE,
      schema: {
        params: PortalUserIdParamsSchema,
        body: ReplaceUserAccessBodySchema,
        response: { 200: UserAccessContentSchema, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => {
      const { auth, signature } = await signed(req);
      return { content: await replaceUserAccess(prisma, auth, req.params.portalUserId, req.body, signature) };
    },
  );
};
