/**
 * The catalogue of the API's /rest routes with their declared schemas and permission, recorded as they are
 * registered (onRoute), and whether each is destructive. The OpenAPI document, the hostile-input route walker
 * (tests/integration/hostile) and the schema test
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
  /** The route changes accounts or records or starts work (`config.destructive`); the route walker runs it on throwaway records only. */
  destructive: boolean | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether the route changes accounts or records or starts work (sign-in failures that lock, sign-out,
     * writes, filings, reviews). Every route that is not a GET declares it (route-catalog.test.ts), so the
     * hostile-input walker (tests/integration/hostile) knows to run it on throwaway records only.
     */
    destructive?: boolean;
  }
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
      routes.push({
        method,
        url: route.url,
        schema: route.schema,
        permission: route.config?.permission,
        destructive: route.config?.destructive,
      });
    }
  });
});
