/**
 * ADMIN's routes of recurring access reviews (issue 25; schedules.ts), permission ADMIN:
 * - GET  /rest/secure/system_mgmt/access_review_schedules: a page of them, newest first;
 * - POST /rest/secure/system_mgmt/access_review_schedules: store one and create its Temporal Schedule (its first
 *   campaign is filed at once);
 * - POST .../access_review_schedules/{id}/deactivate: delete the Temporal Schedule, mark the row inactive.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccessReviewScheduleSchema, CreateAccessReviewScheduleBodySchema, IdParamsSchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { MessageSchema, NoBodySchema, SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import { AdminPageQuerySchema } from './admin-routes';
import { createSchedule, deactivateSchedule, listSchedules } from './schedules';

const BASE = '/rest/secure/system_mgmt/access_review_schedules';

export const accessReviewScheduleRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    BASE,
    {
      config: { permission: 'ADMIN' },
      schema: {
        querystring: AdminPageQuerySchema,
        response: { 200: pageSchema(AccessReviewScheduleSchema), ...SECURE_ERRORS },
      },
    },
    async (req) => listSchedules(deps, req.query),
  );

  app.post(
    BASE,
    {
      config: { permission: 'ADMIN', destructive: true },
      schema: {
        body: CreateAccessReviewScheduleBodySchema,
        response: { 200: AccessReviewScheduleSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => createSchedule(deps, requireAuth(req), req.body),
  );

  app.post(
    `${BASE}/:id/deactivate`,
    {
      config: { permission: 'ADMIN', destructive: true },
      schema: {
        params: IdParamsSchema,
        body: NoBodySchema,
        response: { 200: AccessReviewScheduleSchema, 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => deactivateSchedule(deps, requireAuth(req), req.params.id),
  );
};
