/**
 * App plugins (fastify/demo's `plugins/app`): shared hooks and decorators that must reach every feature, so
 * they are registered on the root app before the features and are not encapsulated in a child scope. The
 * `skip-override` mark is what `fastify-plugin` sets; it is all an app plugin needs here.
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/** Marks `plugin` so its hooks and decorators apply to the app that registers it. */
export function appPlugin<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O>): FastifyPluginAsync<O> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
