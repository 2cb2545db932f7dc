/**
 * The OpenAPI document (issue 14) describes every /rest route of the route catalogue with the request and
 * response schemas the route declares, and the API serves it and its viewer. The server is built as the API
 * process builds it; no call reaches a service here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { type OfflineServer, buildOfflineServer } from './offline-server';
import { API_DOCS_PATH, OPENAPI_PATH } from './openapi';
import type { CatalogRoute } from './route-catalog';

interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let app: FastifyInstance;
let server: OfflineServer | undefined;
let doc: Document;

beforeAll(async () => {
  server = await buildOfflineServer();
  app = server.app;
  const res = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
});

afterAll(async () => {
  await server?.close();
});

/** The catalogue's `/rest/x/:id` as OpenAPI writes it: `/rest/x/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');
const operationOf = (r: CatalogRoute): Operation | undefined => doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
const label = (r: CatalogRoute) => `${r.method} ${r.url}`;
const declared = (part: unknown): part is object => part !== undefined && part !== null;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists only /rest paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/rest/'))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith(API_DOCS_PATH))).toEqual([]);
  });

  it('has every registered /rest route', () => {
    expect(app.routeCatalog.length).toBeGreaterThan(40);
    expect(app.routeCatalog.filter((r) => !operationOf(r)).map(label)).toEqual([]);
  });

  it('has each route’s params, query and body schemas', () => {
    const missing: string[] = [];
    for (const r of app.routeCatalog) {
      const op = operationOf(r)!;
      for (const where of ['params', 'querystring'] as const) {
        const schema = r.schema?.[where];
        if (!declared(schema)) continue;
        const names = Object.keys((schema as { shape?: object }).shape ?? {});
        const inDoc = where === 'params' ? 'path' : 'query';
        for (const name of names) {
          const param = op.parameters?.find((p) => p.in === inDoc && p.name === name);
          if (!param?.schema) missing.push(`${label(r)} ${inDoc} ${name}`);
        }
      }
      const bodyType = (r.schema as { consumes?: string[] } | undefined)?.consumes?.[0] ?? 'application/json';
      if (declared(r.schema?.body) && !op.requestBody?.content?.[bodyType]?.schema) {
        missing.push(`${label(r)} body`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes the dashboard item saves as multipart/form-data with their parts, not as JSON', () => {
    for (const [path, method] of [
      ['/rest/secure/system_mgmt/dashboard_items', 'post'],
      ['/rest/secure/system_mgmt/dashboard_items/{id}', 'put'],
    ] as const) {
      const content = doc.paths[path]?.[method]?.requestBody?.content ?? {};
      expect(Object.keys(content), `${method} ${path}`).toEqual(['multipart/form-data']);
      const schema = content['multipart/form-data']!.schema as {
        required?: string[];
        properties?: Record<string, { type?: string; contentMediaType?: string; format?: string }>;
      };
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['file', 'image', 'item']);
      expect(schema.required).toEqual(['item']);
      expect(schema.properties!.item).toMatchObject({ type: 'string', contentMediaType: 'application/json' });
      for (const part of ['file', 'image']) {
        expect(schema.properties![part], part).toMatchObject({ type: 'string', format: 'binary' });
      }
    }
  });

  it('has each route’s declared answers with their schemas', () => {
    const missing: string[] = [];
    for (const r of app.routeCatalog) {
      const op = operationOf(r)!;
      for (const status of Object.keys((r.schema?.response ?? {}) as object)) {
        // OpenAPI spells a range in capitals (4xx → 4XX).
        const answer = op.responses?.[status.toUpperCase()];
        if (!answer) missing.push(`${label(r)} ${status}`);
        else if (status === '200' && !Object.values(answer.content ?? {})[0]?.schema) {
          missing.push(`${label(r)} ${status} schema`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('shows a role block’s end date as optional and nullable, so old clients stay valid (issue 25)', () => {
    type Obj = { properties?: Record<string, unknown>; required?: string[]; items?: Obj };
    const body = doc.paths['/rest/secure/user_access_mod_request']!.post!.requestBody!.content!['application/json']!
      .schema as Obj;
    const block = (body.properties!.accessControls as Obj).items!;
    expect(block.properties!.accessEndDate).toEqual({
      anyOf: [{ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }],
    });
    expect(block.required).not.toContain('accessEndDate');
  });

  it('marks the secure routes as needing the session cookie and the XSRF header', () => {
    const secure = app.routeCatalog.filter((r) => r.url.startsWith('/rest/secure/'));
    expect(secure.length).toBeGreaterThan(0);
    expect(secure.filter((r) => !operationOf(r)?.security?.length).map(label)).toEqual([]);
  });
});

describe('the viewer', () => {
  it('is served by the API itself, with no script from elsewhere', async () => {
    const page = await app.inject({ method: 'GET', url: `${API_DOCS_PATH}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/src="https?:/);
    const script = await app.inject({ method: 'GET', url: `${API_DOCS_PATH}/static/swagger-ui-bundle.js` });
    expect(script.statusCode).toBe(200);
  });
});
