/**
 * The single sign-on client of a system under /rest/secure/system_mgmt/system_access/{id}/sso_client (issue 22;
 * Configure → Systems, 001 §2.12): reading needs READ_USERS like the rest of the configuration, changing ADMIN.
 * The URI rules follow SSO_ALLOW_LOOPBACK_HTTP (http to loopback only outside production).
 */
import { IdParamsSchema, SsoClientSavedSchema, SsoClientSchema, ssoClientBodySchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { EmptyObjectSchema, NoBodySchema, type ZodApp } from '../../http/route-schemas';
import { CHANGE, READ, actorOf, answers } from './route-options';
import { deleteSsoClient, getSsoClient, rotateSsoClientSecret, saveSsoClient } from './sso-clients';

const PATH = '/rest/secure/system_mgmt/system_access/:id/sso_client';

/** Registers GET / PUT / DELETE of a system's client and POST .../secret (rotation). */
export function registerSsoClientRoutes(app: ZodApp, deps: Deps): void {
  const { prisma } = deps;
  const body = ssoClientBodySchema({ allowLoopbackHttp: deps.cfg.SSO_ALLOW_LOOPBACK_HTTP });

  app.get(
    PATH,
    { config: READ, schema: { params: IdParamsSchema, response: answers(SsoClientSchema.nullable()) } },
    async (req) => getSsoClient(prisma, req.params.id),
  );

  app.put(
    PATH,
    { config: CHANGE, schema: { params: IdParamsSchema, body, response: answers(SsoClientSavedSchema) } },
    async (req) => saveSsoClient(prisma, actorOf(requireAuth(req)), req.params.id, req.body),
  );

  app.delete(
    PATH,
    { config: CHANGE, schema: { params: IdParamsSchema, response: answers(EmptyObjectSchema) } },
    async (req) => deleteSsoClient(prisma, actorOf(requireAuth(req)), req.params.id),
  );

  app.post(
    `${PATH}/secret`,
    { config: CHANGE, schema: { params: IdParamsSchema, body: NoBodySchema, response: answers(SsoClientSavedSchema) } },
    async (req) => rotateSsoClientSecret(prisma, actorOf(requireAuth(req)), req.params.id),
  );
}
