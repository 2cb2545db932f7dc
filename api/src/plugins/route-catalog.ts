/**
 * The catalogue of the API's /rest routes with their declared schemas and permission, recorded as they are
 * registered (onRoute). The OpenAPI document, the route fuzz test and the schema test
 * (route-catalog.test.ts) read it instead of the source.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Permission } from '@portal/contract';
import { appPlugin } from './app-plugin';

export interface CatalogRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  permission: Permission | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /rest route registered so far (HEAD copies of GET routes left out). */
    routeCatalog: CatalogRoute[];
  }
}

export const routeCatalog = appPlugin(async (app: FastifyInstance) => {
  const routes: CatalogRoute[] = [];
  app.decorate('routeCatalog', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/rest/')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, schema: route.schema, permission: route.config?.permission });
    }
  });
});
