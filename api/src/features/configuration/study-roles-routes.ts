/** Study roles under /rest/secure/system_mgmt/study_role (001 §7 Study roles). */
import { z } from 'zod';
import {
  IdParamsSchema,
  OutstandingRequestRefSchema,
  PendingUserRefSchema,
  StudyRoleBodySchema,
  StudyRoleListItemSchema,
  UserRefSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { NoBodySchema, type ZodApp } from '../../http/route-schemas';
import { outstandingRequestsOfStudyRole, pendingUsersOfStudyRole, usersOfStudyRole } from './in-use';
import { CHANGE, READ, actorOf, answers } from './route-options';
import { createStudyRole, getStudyRole, listStudyRoles, toggleStudyRole, updateStudyRole } from './study-roles';

const BASE = '/rest/secure/system_mgmt/study_role';

export function registerStudyRoleRoutes(app: ZodApp, deps: Deps): void {
  const { prisma } = deps;
  const byId = (ok: z.ZodType) => ({ params: IdParamsSchema, response: answers(ok) });

  app.get(`${BASE}/`, { config: READ, schema: { response: answers(z.array(StudyRoleListItemSchema)) } }, async () =>
    listStudyRoles(prisma),
  );

  app.get(`${BASE}/:id`, { config: READ, schema: byId(StudyRoleListItemSchema) }, async (req) =>
    getStudyRole(prisma, req.params.id),
  );

  app.post(
    `${BASE}/`,
    { config: CHANGE, schema: { body: StudyRoleBodySchema, response: answers(StudyRoleListItemSchema) } },
    async (req) => createStudyRole(prisma, actorOf(requireAuth(req)), req.body),
  );

  app.put(
    `${BASE}/:id`,
    { config: CHANGE, schema: { ...byId(StudyRoleListItemSchema), body: StudyRoleBodySchema } },
    async (req) => updateStudyRole(prisma, actorOf(requireAuth(req)), req.params.id, req.body),
  );

  for (const action of ['activate', 'deactivate'] as const) {
    app.put(
      `${BASE}/:id/${action}`,
      { config: CHANGE, schema: { ...byId(StudyRoleListItemSchema), body: NoBodySchema } },
      async (req) => toggleStudyRole(prisma, actorOf(requireAuth(req)), req.params.id, action),
    );
  }

  app.get(`${BASE}/:id/inUseByUser`, { config: READ, schema: byId(z.array(UserRefSchema)) }, async (req) =>
    usersOfStudyRole(prisma, (await getStudyRole(prisma, req.params.id)).roleName),
  );

  app.get(
    `${BASE}/:id/inUseByPendingUser`,
    { config: READ, schema: byId(z.array(PendingUserRefSchema)) },
    async (req) => {
      const role = await getStudyRole(prisma, req.params.id);
      return pendingUsersOfStudyRole(prisma, role.roleName);
    },
  );

  app.get(
    `${BASE}/:id/inUseByOutstandingUserAccessMod`,
    { config: READ, schema: byId(z.array(OutstandingRequestRefSchema)) },
    async (req) => outstandingRequestsOfStudyRole(prisma, (await getStudyRole(prisma, req.params.id)).roleName),
  );
}
