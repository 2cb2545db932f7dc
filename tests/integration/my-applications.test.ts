/**
 * 'My applications' (issue 22 Launch): GET /rest/secure/my_applications against real PostgreSQL and slapd.
 * A test user of its own holds systems made by this file, some with single sign-on clients: only the held,
 * active systems with an initiate-login URI are listed, by the systems' sort then name, each with the URI
 * plus the provider's `iss`; nothing without a session.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyApplication } from '@portal/contract';
import { buildTestApp, call, createTestUser, signIn, type Session, type TestApp } from './auth-helpers';

let t: TestApp;
let session: Session;
const tag = crypto.randomBytes(3).toString('hex');
const URL_PATH = '/rest/secure/my_applications';

/** A system of this file's own, with an SSO client when `initiateLoginUri` is given (null: a client without one). */
async function system(name: string, sort: number, sso?: { initiateLoginUri: string | null }, inactive = false) {
  const created = await t.prisma.systemAccess.create({
    data: { systemName: `MyApps ${tag} ${name}`, sort, inactive },
  });
  if (sso) {
    await t.prisma.ssoClient.create({
      data: {
        clientId: `myapps-${tag}-${created.id}`,
        systemAccessId: created.id,
        isPublic: true,
        redirectUris: ['https://rp.example.org/cb'],
        postLogoutRedirectUris: [],
        initiateLoginUri: sso.initiateLoginUri,
      },
    });
  }
  return created;
}

let held: { beta: number; alpha: number; zulu: number };

beforeAll(async () => {
  t = await buildTestApp({ PORTAL_URL: 'https://portal.example.org/' });
  const person = await createTestUser(t, 'myapps');
  // Held, with SSO: listed. 'Zulu' sorts first by its sort number; 'Alpha' and 'Beta' share one and go by name.
  const beta = await system('Beta', 5, { initiateLoginUri: 'https://beta.example.org/login?from=portal' });
  const alpha = await system('Alpha', 5, { initiateLoginUri: 'https://alpha.example.org/oidc/start' });
  const zulu = await system('Zulu', 1, { initiateLoginUri: 'http://localhost:4100/login' });
  // Held but not listed: no SSO client, a client without an initiate-login URI, an inactive system.
  const plain = await system('Plain', 0);
  const noInitiate = await system('NoInitiate', 0, { initiateLoginUri: null });
  const retired = await system('Retired', 0, { initiateLoginUri: 'https://retired.example.org/login' }, true);
  // Not held (or only through an inactive record): not listed.
  const other = await system('Other', 0, { initiateLoginUri: 'https://other.example.org/login' });
  const lapsed = await system('Lapsed', 0, { initiateLoginUri: 'https://lapsed.example.org/login' });
  held = { beta: beta.id, alpha: alpha.id, zulu: zulu.id };
  const record = (roleName: string, systemAccessIds: number[], inactive = false) => ({
    portalUserId: person.user.id,
    roleName,
    inactive,
    systemAccessIds,
    createdBy: 'my-applications-test',
    lastModifiedBy: 'my-applications-test',
  });
  await t.prisma.userAccess.createMany({
    data: [
      record('Role A', [beta.id, plain.id, noInitiate.id]),
      record('Role B', [alpha.id, zulu.id, retired.id, beta.id]),
      record('Role C', [lapsed.id], true),
    ],
  });
  void other;
  session = await signIn(t.app, person.username, person.password);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /rest/secure/my_applications', () => {
  it("lists the user's held, active systems with single sign-on, by sort then name, with the issuer", async () => {
    const res = await call(t.app, session, 'GET', URL_PATH);
    expect(res.statusCode, res.body).toBe(200);
    const apps = res.json<MyApplication[]>();
    expect(apps.map((a) => a.systemId)).toEqual([held.zulu, held.alpha, held.beta]);
    expect(apps.map((a) => a.systemName)).toEqual([`MyApps ${tag} Zulu`, `MyApps ${tag} Alpha`, `MyApps ${tag} Beta`]);
    const iss = encodeURIComponent('https://portal.example.org/oidc');
    expect(apps[0]!.launchUrl).toBe(`http://localhost:4100/login?iss=${iss}`);
    expect(apps[1]!.launchUrl).toBe(`https://alpha.example.org/oidc/start?iss=${iss}`);
    // The URI's own query is kept; no target_link_uri is added.
    expect(apps[2]!.launchUrl).toBe(`https://beta.example.org/login?from=portal&iss=${iss}`);
    expect(apps.every((a) => !a.launchUrl.includes('target_link_uri'))).toBe(true);
  });

  it("lists none of another user's systems", async () => {
    const res = await call(t.app, await signIn(t.app, 'readonly'), 'GET', URL_PATH);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MyApplication[]>().some((a) => a.systemName.startsWith(`MyApps ${tag}`))).toBe(false);
  });

  it('answers 401 without a session', async () => {
    const res = await call(t.app, null, 'GET', URL_PATH);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('message');
  });
});
