/**
 * The user detail's calls (000 §7 User management): GET user/{id} (READ_USERS), PUT update_user,
 * PUT activate_user/{id} and deactivate_user/{id} (WRITE_USERS). Each route declares its permission and
 * its schemas; the services are detail-view.ts, detail-update.ts and detail-status.ts. With SIGNATURES=on a
 * save changing the portal roles is signed USER_ACCESS_EDIT and a status change USER_STATUS (`signatureFor`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema, USER_SIGNATURES_SHOWN, UserDetailSchema, UserUpdateBodySchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import { signatureFor } from '../../auth/signature-guard';
import type { Deps } from '../../deps';
import { MessageSchema, NoBodySchema, SECURE_ERRORS } from '../../http/route-schemas';
import { userSignatureViews } from '../../shared/signature-views';
import { z } from 'zod';
import { editorOf } from './detail-common';
import { setUserStatus } from './detail-status';
import { changesPortalRoles, updateUser } from './detail-update';
import { getUserDetail } from './detail-view';

const BASE = '/rest/secure/user_management';
const READ = { permission: 'READ_USERS' } as const;
const WRITE = { permission: 'WRITE_USERS', destructive: true } as const;
const answers = { 200: UserDetailSchema, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS };
/** update_user also answers 503 when the directory cannot be written (nothing changed). */
const updateAnswers = { ...answers, 503: MessageSchema };

export const userDetailRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma, directory } = deps;

  app.get(`${BASE}/user/:id`, { config: READ, schema: { params: IdParamsSchema, response: answers } }, async (req) => {
    const detail = await getUserDetail(prisma, directory, req.params.id);
    // With SIGNATURES=on the detail shows the signed decisions made on it (docs/decisions.md "Electronic
    // signatures"); off, the spec's answer.
    if (deps.cfg.SIGNATURES !== 'on') return detail;
    return { ...detail, signatures: await userSignatureViews(prisma, detail.id, USER_SIGNATURES_SHOWN) };
  });

  app.put(
    `${BASE}/update_user`,
    { config: WRITE, schema: { body: UserUpdateBodySchema, response: updateAnswers } },
    async (req) => {
      const auth = requireAuth(req);
      // A save changing the portal roles is signed USER_ACCESS_EDIT (the service checks again under the lock).
      const held = await prisma.portalUserRole.findMany({ where: { portalUserId: req.body.id } });
      const roles = changesPortalRoles(
        held.map((r) => r.portalRoleId),
        req.body.portalRoleIds,
      );
      const signature = await signatureFor(deps, req, auth, roles ? ['USER_ACCESS_EDIT'] : []);
      return updateUser(prisma, directory, editorOf(auth), req.body, {
        enabled: deps.cfg.SIGNATURES === 'on',
        signature,
      });
    },
  );

  for (const action of ['activate', 'deactivate'] as const) {
    app.put(
      `${BASE}/${action}_user/:id`,
      { config: WRITE, schema: { params: IdParamsSchema, body: NoBodySchema, response: answers } },
      async (req) => {
        const auth = requireAuth(req);
        const signature = await signatureFor(deps, req, auth, ['USER_STATUS']);
        return setUserStatus(prisma, directory, editorOf(auth), req.params.id, action, signature);
      },
    );
  }
};
