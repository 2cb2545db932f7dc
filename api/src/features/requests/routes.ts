/** The request kinds' routes (001 §7) and the cross-kind User Requests queue (000 §7), one plugin. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps';
import { accessChangeListRoutes } from './access-change/list-routes';
import { accessChangeRoutes } from './access-change/routes';
import { userRequestQueueRoutes } from './queue';

export const requestRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(accessChangeRoutes, { deps });
  await app.register(accessChangeListRoutes, { deps });
  await app.register(userRequestQueueRoutes, { deps });
};
