/** The request kinds' routes (001 §7) and the cross-kind User Requests queue (000 §7). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import { registerAccessRequestRoutes } from './access-change/routes';
import { registerUserRequestQueueRoutes } from './queue';

export function registerRequestRoutes(app: FastifyInstance, deps: Deps): void {
  registerAccessRequestRoutes(app, deps);
  registerUserRequestQueueRoutes(app, deps);
}
