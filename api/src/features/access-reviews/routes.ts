/**
 * Access review campaigns (issue 25 "Access review campaigns (recertification)"; docs/api.md): the reviewers'
 * routes, ADMIN's campaign routes and ADMIN's recurring reviews, registered as one feature.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps';
import { accessReviewAdminRoutes } from './admin-routes';
import { accessReviewReviewerRoutes } from './reviewer-routes';
import { accessReviewScheduleRoutes } from './schedule-routes';

export const accessReviewRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(accessReviewReviewerRoutes, { deps });
  await app.register(accessReviewAdminRoutes, { deps });
  await app.register(accessReviewScheduleRoutes, { deps });
};
