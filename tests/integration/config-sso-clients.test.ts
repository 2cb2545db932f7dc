/**
 * A system's single sign-on client (issue 22; Configure → Systems, 001 §2.12) against real PostgreSQL: create,
 * change, rotate and remove with ADMIN (READ_USERS reads, others 403); the secret answered once and stored only
 * as its digest; the URI rules (https, loopback http only outside production, no fragment, no user information);
 * a client id used by one system only; the fixed system refused; one audit row per change, never the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR, SSO_CLIENT_MESSAGES } from '@portal/contract';
import { verifyClientSecret } from '@portal/db';
import { auditRowsOf, signIn, startApi, unique, useConfigApi, type TestApi } from './config-support';

const BASE = '/rest/secure/system_mgmt/system_access';
const { api, call, admin, readonly, user } = useConfigApi();
const clientPath = (id: number) => `${BASE}/${id}/sso_client`;
const clientId = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A system of this test's own. */
async function newSystem(tag: string) {
  return api.prisma.systemAccess.create({ data: { systemName: unique(`SSO ${tag}`), description: '' } });
}

const body = (id: string, extra: Record<string, unknown> = {}) => ({
  clientId: id,
  isPublic: false,
  redirectUris: ['https://edc.example.org/callback', 'http://127.0.0.1:4000/callback'],
  postLogoutRedirectUris: ['https://edc.example.org/'],
  backchannelLogoutUri: 'https://edc.example.org/backchannel-logout',
  initiateLoginUri: 'https://edc.example.org/login',
  ...extra,
});

/** Stands in for what the provider issues to `client`: a grant (with a token under it) and a code naming it. */
async function issue(client: string) {
  const grantId = `grant-${client}`;
  await api.prisma.oidcPayload.createMany({
    data: [
      { kind: 'Grant', id: grantId, payload: { clientId: client, accountId: 'x' } },
      { kind: 'RefreshToken', id: `rt-${client}`, grantId, payload: { grantId } },
      { kind: 'AuthorizationCode', id: `code-${client}`, payload: { clientId: client } },
    ],
  });
  expect(await issuedTo(client)).toBe(3);
}
const issuedTo = (client: string) =>
  api.prisma.oidcPayload.count({ where: { id: { in: [`grant-${client}`, `rt-${client}`, `code-${client}`] } } });

let fixedId: number;
beforeAll(async () => {
  fixedId = (await api.prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } })).id;
});

describe('single sign-on client: permissions and refusals', () => {
  it('needs READ_USERS to read and ADMIN to change', async () => {
    const system = await newSystem('Perm');
    expect((await call(null, 'GET', clientPath(system.id))).statusCode).toBe(401);
    expect((await call(user, 'GET', clientPath(system.id))).statusCode).toBe(403);
    const none = await call(readonly, 'GET', clientPath(system.id));
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    for (const denied of [user, readonly]) {
      expect((await call(denied, 'PUT', clientPath(system.id), body(clientId('denied')))).statusCode).toBe(403);
      expect((await call(denied, 'POST', `${clientPath(system.id)}/secret`)).statusCode).toBe(403);
      expect((await call(denied, 'DELETE', clientPath(system.id))).statusCode).toBe(403);
    }
    expect(await api.prisma.ssoClient.findUnique({ where: { systemAccessId: system.id } })).toBeNull();
  });

  it('refuses the fixed system, unknown systems and a missing client', async () => {
    const fixed = await call(admin, 'PUT', clientPath(fixedId), body(clientId('fixed')));
    expect(fixed.statusCode).toBe(422);
    expect(fixed.json()).toEqual({ fieldErrors: {}, globalErrors: [SSO_CLIENT_MESSAGES.fixedSystem] });
    expect((await call(admin, 'POST', `${clientPath(fixedId)}/secret`)).json().globalErrors).toEqual([
      SSO_CLIENT_MESSAGES.fixedSystem,
    ]);
    expect((await call(admin, 'GET', clientPath(fixedId))).json()).toBeNull();
    expect((await call(admin, 'PUT', clientPath(999_999), body(clientId('x')))).statusCode).toBe(404);
    const system = await newSystem('Missing');
    const missing = await call(admin, 'DELETE', clientPath(system.id));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: SSO_CLIENT_MESSAGES.notSetUp });
  });

  it('answers 422 with the spec keys for bad bodies and URIs', async () => {
    const system = await newSystem('Rules');
    const empty = await call(admin, 'PUT', clientPath(system.id), {});
    expect(empty.json()).toEqual({
      fieldErrors: { clientId: ['required'], redirectUris: ['required'] },
      globalErrors: [],
    });
    const bad = await call(admin, 'PUT', clientPath(system.id), {
      clientId: 'no spaces',
      redirectUris: [
        'http://edc.example.org/cb',
        'https://edc.example.org/cb#fragment',
        'https://user:pass@edc.example.org/cb',
        'https://*.example.org/cb',
        'not a url',
        'http://localhost:3000/cb',
      ],
      postLogoutRedirectUris: 'https://edc.example.org/',
      backchannelLogoutUri: 'ftp://edc.example.org/logout',
      isPublic: 'yes',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({
      clientId: ['invalid'],
      'redirectUris[0]': ['protocolRequired'],
      'redirectUris[1]': ['invalid'],
      'redirectUris[2]': ['invalid'],
      'redirectUris[3]': ['invalid'],
      'redirectUris[4]': ['invalid'],
      postLogoutRedirectUris: ['invalid'],
      backchannelLogoutUri: ['protocolRequired'],
      isPublic: ['invalid'],
    });
    const tooMany = await call(
      admin,
      'PUT',
      clientPath(system.id),
      body('x'.repeat(129), {
        redirectUris: Array.from({ length: 11 }, (_, i) => `https://edc.example.org/${i}`),
      }),
    );
    expect(tooMany.json().fieldErrors).toEqual({ clientId: ['size'], redirectUris: ['size'] });
    const malformed = await api.app.inject({
      method: 'PUT',
      url: clientPath(system.id),
      headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf, 'content-type': 'application/json' },
      payload: '{"clientId":',
    });
    expect(malformed.statusCode).toBe(422);
  });

  it('refuses loopback http when SSO_ALLOW_LOOPBACK_HTTP is false (production)', async () => {
    let prod: TestApi | undefined;
    try {
      prod = await startApi({ SSO_ALLOW_LOOPBACK_HTTP: 'false' });
      const session = await signIn(prod.app, 'admin');
      const system = await newSystem('Prod');
      const res = await prod.app.inject({
        method: 'PUT',
        url: clientPath(system.id),
        headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
        payload: body(clientId('prod')),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().fieldErrors).toEqual({ 'redirectUris[1]': ['protocolRequired'] });
    } finally {
      await prod?.close();
    }
  });
});

describe('single sign-on client: lifecycle', () => {
  const ids: number[] = [];
  afterAll(async () => {
    await api.prisma.ssoClient.deleteMany({ where: { systemAccessId: { in: ids } } });
  });

  it('creates a confidential client with its secret shown once and stored hashed, changes, rotates and removes it', async () => {
    const system = await newSystem('Life');
    ids.push(system.id);
    const id = clientId('edc');
    const created = await call(admin, 'PUT', clientPath(system.id), body(` ${id} `));
    expect(created.statusCode).toBe(200);
    const first = created.json();
    expect(first).toMatchObject({ systemAccessId: system.id, clientId: id, isPublic: false, hasSecret: true });
    expect(first.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    let row = await api.prisma.ssoClient.findUniqueOrThrow({ where: { clientId: id } });
    expect(row.secretHash).not.toContain(first.clientSecret);
    expect(row.secretHash).toMatch(/^sha256\$/);
    expect(await verifyClientSecret(row.secretHash!, first.clientSecret)).toBe(true);

    // Never again retrievable: the read has no secret, and an unchanged save is a 304.
    const read = await call(readonly, 'GET', clientPath(system.id));
    expect(read.json()).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(read.json())).not.toContain(row.secretHash);
    expect((await call(admin, 'PUT', clientPath(system.id), body(id))).statusCode).toBe(304);

    // A change keeps the secret.
    const changed = await call(admin, 'PUT', clientPath(system.id), body(id, { initiateLoginUri: null }));
    expect(changed.json()).toMatchObject({ initiateLoginUri: null, hasSecret: true, clientSecret: null });
    row = await api.prisma.ssoClient.findUniqueOrThrow({ where: { clientId: id } });
    expect(await verifyClientSecret(row.secretHash!, first.clientSecret)).toBe(true);

    // Rotation: a new secret once, the old one no longer verifies.
    const rotated = await call(admin, 'POST', `${clientPath(system.id)}/secret`);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json().clientSecret as string;
    expect(second).not.toBe(first.clientSecret);
    row = await api.prisma.ssoClient.findUniqueOrThrow({ where: { clientId: id } });
    expect(await verifyClientSecret(row.secretHash!, second)).toBe(true);
    expect(await verifyClientSecret(row.secretHash!, first.clientSecret)).toBe(false);

    // Public: the secret is dropped and cannot be rotated; confidential again issues a new one.
    const toPublic = await call(admin, 'PUT', clientPath(system.id), body(id, { isPublic: true }));
    expect(toPublic.json()).toMatchObject({ isPublic: true, hasSecret: false, clientSecret: null });
    expect((await api.prisma.ssoClient.findUniqueOrThrow({ where: { clientId: id } })).secretHash).toBeNull();
    const refused = await call(admin, 'POST', `${clientPath(system.id)}/secret`);
    expect(refused.json().globalErrors).toEqual([SSO_CLIENT_MESSAGES.publicHasNoSecret]);
    const back = await call(admin, 'PUT', clientPath(system.id), body(id));
    expect(back.json().clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await issue(id);
    const removed = await call(admin, 'DELETE', clientPath(system.id));
    expect(removed.statusCode).toBe(200);
    expect(await issuedTo(id)).toBe(0);
    expect((await call(admin, 'GET', clientPath(system.id))).json()).toBeNull();

    const audit = await auditRowsOf(api.prisma, 'SsoClient', system.id);
    expect(audit.map((a) => a.action)).toEqual([
      'CREATED',
      'UPDATED',
      'SECRET_ROTATED',
      'UPDATED',
      'UPDATED',
      'DELETED',
    ]);
    expect(audit.every((a) => a.actorUsername === 'admin')).toBe(true);
    expect(audit[0]!.after).toMatchObject({ clientId: id, hasSecret: true });
    expect(audit[2]!.before).toEqual(audit[2]!.after);
    expect(audit[5]!.before).toMatchObject({ clientId: id });
    const text = JSON.stringify(audit.map((a) => [a.before, a.after]));
    for (const secret of [first.clientSecret, second, back.json().clientSecret]) expect(text).not.toContain(secret);
    expect(text).not.toContain('sha256$');
    expect(text).not.toContain('secretHash');
  });

  it('sets, audits and clears the sign-in level a system asks for by default (issue 37)', async () => {
    const system = await newSystem('Level');
    ids.push(system.id);
    const id = clientId('lvl');
    expect((await call(admin, 'PUT', clientPath(system.id), body(id))).json()).toMatchObject({ defaultAcr: null });
    const set = await call(admin, 'PUT', clientPath(system.id), body(id, { defaultAcr: ACR.multiFactor }));
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ defaultAcr: ACR.multiFactor });
    expect((await call(readonly, 'GET', clientPath(system.id))).json()).toMatchObject({ defaultAcr: ACR.multiFactor });
    const bad = await call(admin, 'PUT', clientPath(system.id), body(id, { defaultAcr: 'urn:elsewhere:gold' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toHaveProperty('defaultAcr');
    expect((await call(admin, 'PUT', clientPath(system.id), body(id, { defaultAcr: null }))).statusCode).toBe(200);

    const audit = await auditRowsOf(api.prisma, 'SsoClient', system.id);
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'UPDATED', 'UPDATED']);
    expect(audit[1]).toMatchObject({ before: { defaultAcr: null }, after: { defaultAcr: ACR.multiFactor } });
    expect(audit[2]).toMatchObject({ before: { defaultAcr: ACR.multiFactor }, after: { defaultAcr: null } });
  });

  it('creates a public client without a secret, and keeps a client id to one system', async () => {
    const [a, b] = [await newSystem('A'), await newSystem('B')];
    ids.push(a.id, b.id);
    const id = clientId('spa');
    const pub = await call(admin, 'PUT', clientPath(a.id), body(id, { isPublic: true, backchannelLogoutUri: '' }));
    expect(pub.json()).toMatchObject({
      isPublic: true,
      hasSecret: false,
      clientSecret: null,
      backchannelLogoutUri: null,
    });
    const taken = await call(admin, 'PUT', clientPath(b.id), body(id));
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({ fieldErrors: { clientId: ['unique'] }, globalErrors: [] });

    // A client id may change: what was issued under the old one ends, and the old id is free again.
    await issue(id);
    const renamed = await call(admin, 'PUT', clientPath(a.id), body(`${id}-2`, { isPublic: true }));
    expect(renamed.json().clientId).toBe(`${id}-2`);
    expect(await issuedTo(id)).toBe(0);
    expect((await call(admin, 'PUT', clientPath(b.id), body(id))).statusCode).toBe(200);
    expect(await api.prisma.ssoClient.count({ where: { systemAccessId: { in: [a.id, b.id] } } })).toBe(2);
  });
});
