/** Systems under /rest/secure/system_mgmt/system_access (001 §7 Systems). */
import { z } from 'zod';
import {
  IdParamsSchema,
  OutstandingRequestRefSchema,
  PendingUserRefSchema,
  StudyRoleRefSchema,
  SystemBodySchema,
  SystemDetailSchema,
  UserRefSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { NoBodySchema, type ZodApp } from '../../http/route-schemas';
import { outstandingRequestsOfSystem, pendingUsersOfSystem, studyRolesOfSystem, usersOfSystem } from './in-use';
import { CHANGE, READ, actorOf, answers } from './route-options';
import { createSystem, getSystem, listSystems, toggleSystem, updateSystem } from './systems';

const BASE = '/rest/secure/system_mgmt/system_access';

export function registerSystemRoutes(app: ZodApp, deps: Deps): void {
  const { prisma } = deps;
  const byId = (ok: z.ZodType) => ({ params: IdParamsSchema, response: answers(ok) });

  app.get(`${BASE}/`, { config: READ, schema: { response: answers(z.array(SystemDetailSchema)) } }, async () =>
    listSystems(prisma),
  );

  app.get(`${BASE}/:id`, { config: READ, schema: byId(SystemDetailSchema) }, async (req) =>
    getSystem(prisma, req.params.id),
  );

  app.post(
    `${BASE}/`,
    { config: CHANGE, schema: { body: SystemBodySchema, response: answers(SystemDetailSchema) } },
    async (req) => createSystem(prisma, actorOf(requireAuth(req)), req.body),
  );

  app.put(
    `${BASE}/:id`,
    { config: CHANGE, schema: { ...byId(SystemDetailSchema), body: SystemBodySchema } },
    async (req) => updateSystem(prisma, actorOf(requireAuth(req)), req.params.id, req.body),
  );

  for (const action of ['activate', 'deactivate'] as const) {
    app.put(
      `${BASE}/:id/${action}/`,
      { config: CHANGE, schema: { ...byId(SystemDetailSchema), body: NoBodySchema } },
      async (req) => toggleSystem(prisma, actorOf(requireAuth(req)), req.params.id, action),
    );
  }

  const inUse = [
    ['inUseByStudyRole', StudyRoleRefSchema, (id: number) => studyRolesOfSystem(prisma, id)],
    ['inUseByUser', UserRefSchema, (id: number) => usersOfSystem(prisma, id)],
    ['inUseByPendingUser', PendingUserRefSchema, (id: number) => pendingUsersOfSystem(prisma, id)],
    [
      'inUseByOutstandingUserAccessMod',
      OutstandingRequestRefSchema,
      (id: number) => outstandingRequestsOfSystem(prisma, id),
    ],
  ] as const;
  for (const [name, row, load] of inUse) {
    app.get(`${BASE}/:id/${name}`, { config: READ, schema: byId(z.array(row)) }, async (req) => {
      await getSystem(prisma, req.params.id);
      return load(req.params.id);
    });
  }
}
