/**
 * Every /rest route declares its schemas (issue 8), so the OpenAPI document and the route fuzz test can
 * read them: params when its path has any, a body for POST and PUT, answers for 200; a permission only under
 * /rest/secure. The server is built as the API process builds it; no call reaches a service here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type OfflineServer, buildOfflineServer } from './offline-server';
import type { CatalogRoute } from './route-catalog';

/**
 * Request routes that still parse their input by hand (issue 7 is rewriting them); they leave this list as
 * they declare their schemas. Nothing else may be added here.
 */

let server: OfflineServer | undefined;
let routes: CatalogRoute[];

beforeAll(async () => {
  server = await buildOfflineServer();
  routes = server.app.routeCatalog;
});

afterAll(async () => {
  await server?.close();
});

const label = (r: CatalogRoute) => `${r.method} ${r.url}`;
const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
const shapeKeys = (schema: unknown) => Object.keys((schema as z.ZodObject).shape ?? {}).sort();

describe('the route catalogue', () => {
  it('holds the features’ routes', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map(label)).toContain('GET /rest/secure/system_mgmt/portal_roles/:id');
  });

  it('declares params for every path parameter', () => {
    const missing = routes
      .filter((r) => paramNames(r.url).length > 0)
      .filter((r) => shapeKeys(r.schema?.params).join() !== paramNames(r.url).sort().join())
      .map(label);
    expect(missing).toEqual([]);
  });

  it('declares a body for every POST and PUT', () => {
    expect(routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.schema?.body).map(label)).toEqual([]);
  });

  it('declares the 200 answer of every route (202 for a start that is only accepted)', () => {
    const undeclared = routes.filter((r) => {
      const answers = r.schema?.response as Record<string, unknown> | undefined;
      return !answers?.[200] && !answers?.[202];
    });
    expect(undeclared.map(label)).toEqual([]);
  });

  it('has every route that is not a GET say whether it is destructive (the route walker reads it)', () => {
    expect(routes.filter((r) => r.method !== 'GET' && r.destructive === undefined).map(label)).toEqual([]);
    expect(routes.find((r) => r.url === '/rest/token/create')?.destructive).toBe(true);
  });

  it('names permissions only on /rest/secure routes', () => {
    expect(routes.filter((r) => r.permission && !r.url.startsWith('/rest/secure/')).map(label)).toEqual([]);
    expect(routes.find((r) => r.url === '/rest/secure/audit_trail')?.permission).toBe('READ_USERS');
  });
});
