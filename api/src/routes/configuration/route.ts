/** Route helpers of the configuration calls (001 §7): the spec writes some paths with a trailing slash. */
import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { z } from 'zod';

/** Registers `path` with and without its trailing slash, so both spellings of a spec path answer. */
export function route(app: FastifyInstance, method: HTTPMethods, path: string, handler: RouteHandlerMethod): void {
  const bare = path.endsWith('/') ? path.slice(0, -1) : path;
  for (const url of [bare, `${bare}/`]) app.route({ method, url, handler });
}

export const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The audit actor of a signed-in user. */
export const actorOf = (auth: { userId: number; username: string }) => ({
  userId: auth.userId,
  username: auth.username,
});
