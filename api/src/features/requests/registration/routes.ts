/**
 * Registrations (001 §7 Registrations), one feature plugin: the public form with its captcha, 'Request a
 * User', the reviewers' lists and actions, and the review screen's look-ups (account types, active portal
 * roles, directory matches, proxy registration history). Permissions (001 §6): READ_USERS views, WRITE_USERS
 * acts; filing a proxy registration needs a signed-in USER; the public calls need none.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lookupRoutes } from './lookup-routes';
import { publicRoutes } from './public-routes';
import { reviewRoutes } from './review-routes';
import type { Deps } from '../../../deps';

export const registrationRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(publicRoutes, { deps });
  await app.register(reviewRoutes, { deps });
  await app.register(lookupRoutes, { deps });
};
