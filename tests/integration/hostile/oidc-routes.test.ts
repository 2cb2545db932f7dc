/**
 * The hostile-input walk of the single sign-on provider's paths (issue 22 Tests): every /oidc endpoint the
 * discovery document names, plus the portal's own interaction step, as every persona, with the protocol's
 * parameters generated and then mutated the way an attacker would (unknown and real client ids, redirect URIs
 * of other sites, NUL, lone surrogates, SQL and LDAP metacharacters, 1 MB values, wrong client credentials).
 * No answer may be 5xx, no body may carry a stack trace, a server path or a raw database error, and a refused
 * request (4xx) may not change a single row. The /rest routes are walked by routes.test.ts from the route
 * catalogue; the provider is a Koa app mounted whole under /oidc, so its paths are listed here.
 *
 * Fixed seed, bounded runs (HOSTILE_RUNS per path, 10 by default), on its own clone of the seeded database.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createPrisma, type PrismaClient } from '@portal/db';
import { registerSystem, REDIRECT_URI } from '../../support/sso-browser';
import { startApi, type TestApi } from '../harness';
import { HOSTILE_VALUES, ONE_MB } from './arbitraries';
import { type ChangeWatch, cloneDatabase, leakIn, type PersonaName, personaPool, watchChanges } from './walker-support';

const SEED = 22_2026;
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10);
const PERSONAS: PersonaName[] = ['anonymous', 'user', 'admin'];

/** The provider's paths (as discovery names them) and the portal's interaction step, with their methods. */
const PATHS: Array<{ method: 'GET' | 'POST'; path: string }> = [
  { method: 'GET', path: '/oidc/.well-known/openid-configuration' },
  { method: 'GET', path: '/oidc/jwks' },
  { method: 'GET', path: '/oidc/auth' },
  { method: 'POST', path: '/oidc/auth' },
  { method: 'POST', path: '/oidc/token' },
  { method: 'GET', path: '/oidc/me' },
  { method: 'POST', path: '/oidc/me' },
  { method: 'POST', path: '/oidc/token/introspection' },
  { method: 'POST', path: '/oidc/token/revocation' },
  { method: 'GET', path: '/oidc/session/end' },
  { method: 'POST', path: '/oidc/session/end/confirm' },
  { method: 'GET', path: '/oidc/interaction/:uid' },
  { method: 'POST', path: '/oidc/interaction/:uid/login' },
];

/** The protocol's parameter names a request may carry. */
const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'prompt',
  'code_challenge',
  'code_challenge_method',
  'grant_type',
  'code',
  'refresh_token',
  'token',
  'token_type_hint',
  'id_token_hint',
  'post_logout_redirect_uri',
  'max_age',
  'request',
  'request_uri',
  'claims',
  'login_hint',
  'xsrf',
  'logout',
] as const;

let api: TestApi;
let prisma: PrismaClient;
let dropClone: () => Promise<void>;
let personas: ReturnType<typeof personaPool>;
let changes: ChangeWatch;
let system: Awaited<ReturnType<typeof registerSystem>>;

beforeAll(async () => {
  const clone = await cloneDatabase();
  dropClone = clone.drop;
  prisma = createPrisma(clone.url);
  api = await startApi(
    {
      DATABASE_URL: clone.url,
      TEMPORAL_TASK_QUEUE: `hostile-oidc-${crypto.randomBytes(4).toString('hex')}`,
      RATE_LIMIT_SIGN_IN_MAX: '100000',
    },
    () => prisma,
  );
  changes = await watchChanges(prisma);
  personas = personaPool(api.app, prisma, api.directory);
  system = await registerSystem({ prisma });
}, 240_000);

afterAll(async () => {
  await api?.close();
  await prisma?.$disconnect();
  await dropClone?.();
});

/** A value for one protocol parameter: a plausible one for the registered client, or an attacker's. */
function valueArb(name: (typeof PARAMS)[number]): fc.Arbitrary<string> {
  const plausible: Partial<Record<(typeof PARAMS)[number], string[]>> = {
    client_id: [system.clientId, 'no-such-client'],
    redirect_uri: [REDIRECT_URI, `${REDIRECT_URI}/extra`, 'https://evil.example/callback'],
    response_type: ['code', 'token', 'id_token token'],
    scope: ['openid', 'openid profile email study_access portal_roles offline_access'],
    prompt: ['none', 'login', 'consent'],
    code_challenge_method: ['S256', 'plain'],
    grant_type: ['authorization_code', 'refresh_token', 'password', 'client_credentials'],
    post_logout_redirect_uri: ['http://localhost:9/signed-out', 'https://evil.example/'],
  };
  const hostile = HOSTILE_VALUES.filter((v): v is string => typeof v === 'string');
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(plausible[name] ?? ['x'])), weight: 3 },
    { arbitrary: fc.constantFrom(...hostile), weight: 2 },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
    { arbitrary: fc.constant(ONE_MB.slice(0, 64 * 1024)), weight: 1 },
  );
}

interface Case {
  persona: PersonaName;
  params: Record<string, string>;
  uid: string;
  credentials: 'none' | 'real' | 'wrong';
  asBody: boolean;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  persona: fc.constantFrom(...PERSONAS),
  params: fc
    .subarray([...PARAMS], { minLength: 0, maxLength: 8 })
    .chain((names) =>
      fc.record(Object.fromEntries(names.map((n) => [n, valueArb(n)])) as Record<string, fc.Arbitrary<string>>),
    ),
  uid: fc.oneof(fc.constant('AAAAAAAAAAAAAAAAAAAAA'), fc.constantFrom('%00', '..%2F..', '%E0%A4%A', 'x'.repeat(300))),
  credentials: fc.constantFrom<Case['credentials']>('none', 'real', 'wrong'),
  asBody: fc.boolean(),
});

/** Answers seen by path and class: the walk must reach the provider's handlers, not only bounce off. */
const seen = new Map<string, Set<number>>();

describe('every /oidc path, every persona, hostile input (issue 22)', () => {
  for (const { method, path } of PATHS) {
    it(`${method} ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const persona = await personas.get(c.persona);
          const form = new URLSearchParams(c.params).toString();
          const url = path.replace(':uid', c.uid) + (method === 'GET' || !c.asBody ? (form ? `?${form}` : '') : '');
          const headers: Record<string, string> = {};
          if (persona.session) {
            headers.cookie = persona.session.cookie;
            headers['x-xsrf-token'] = persona.session.xsrf;
          }
          if (c.credentials !== 'none') {
            const secret = c.credentials === 'real' ? system.secret : 'wrong';
            headers.authorization = `Basic ${Buffer.from(`${system.clientId}:${secret}`).toString('base64')}`;
          }
          const withBody = method === 'POST' && c.asBody;
          if (withBody) headers['content-type'] = 'application/x-www-form-urlencoded';
          const before = await changes.mark();
          const res = await api.app.inject({ method, url, headers, ...(withBody ? { payload: form } : {}) });
          const what = `${method} ${url.slice(0, 200)} as ${c.persona}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          seen.set(path, (seen.get(path) ?? new Set()).add(Math.floor(res.statusCode / 100)));
          expect(res.statusCode, what).toBeLessThan(500);
          expect(leakIn(res.body), what).toBeNull();
          if (res.statusCode >= 400) expect(await changes.changedSince(before), what).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }

  it('reached the provider: accepted answers and protocol refusals', () => {
    const classes = [...seen.values()].flatMap((s) => [...s]);
    expect(seen.get('/oidc/.well-known/openid-configuration')).toContain(2);
    expect(seen.get('/oidc/auth')).toContain(3);
    expect(classes).toContain(4);
  });
});
