/**
 * Back-channel logout (issue 22; OpenID Connect Back-Channel Logout 1.0): removing a person's access to a
 * system that registered a back-channel logout URI writes a notice in the writer's transaction; its
 * `sso-logout-<id>` workflow (started by the worker's listener when the removal commits, or by the
 * reconciler when no worker listened; run by a real worker) POSTs a logout token signed with the provider's
 * key, retried while the system answers an error. Signing out (of the portal, or from a system through
 * RP-initiated logout) sends one too, through the same notice and workflow, and discovery says so. The system
 * here is a real HTTP server on localhost that first answers 503.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { listenForLogoutNotices, startLogoutNotice } from '@portal/worker';
import * as oidc from 'openid-client';
import { call, signIn } from '../auth-helpers';
import { startWorker } from '../harness';
import { uniqueQueue, until } from '../lifecycle/support';
import {
  Browser,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  authorizationRequest,
  discover,
  freePort,
  person,
  registerSystem,
  signInThroughPortal,
  useSsoStack,
} from './support';

const sso = useSsoStack();
const queue = uniqueQueue('sso-logout');
const received: string[] = [];
let answers = [503];
let server: http.Server;
let port: number;
let stopWorker: () => Promise<void>;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  port = await freePort();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  stopWorker = await startWorker(sso.current.t, queue);
  connection = await Connection.connect({ address: sso.current.t.cfg.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: sso.current.t.cfg.TEMPORAL_NAMESPACE });
}, 60_000);

/**
 * A person holding `system`, signed in to it through the portal (so a grant and a provider session exist), their
 * portal session, browser, relying party and tokens, and an admin session.
 */
async function signedInto(system: Awaited<ReturnType<typeof registerSystem>>, tag: string) {
  const { user, session } = await person(sso.current.t, tag, system.systemId);
  const config = await discover(sso.current.issuer, system.clientId, system.secret);
  const { url, verifier, state } = await authorizationRequest(config, 'openid');
  const browser = new Browser(sso.current.base);
  const { callback } = await signInThroughPortal(browser, url, session);
  const tokens = await oidc.authorizationCodeGrant(config, callback!, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { user, session, browser, config, tokens, admin: await signIn(sso.current.t.app, 'reviewer') };
}

/** Runs `fn` while the worker's listener starts logout notices on their commit. */
async function listening<T>(fn: () => Promise<T>): Promise<T> {
  const stop = listenForLogoutNotices({
    connectionString: sso.current.t.cfg.DATABASE_URL,
    prisma: sso.current.t.prisma,
    client,
    taskQueue: queue,
  });
  try {
    return await fn();
  } finally {
    await stop();
  }
}

/**
 * The provider's published keys. jose gives up fetching them after 5 s by default, which an API sharing two
 * busy cores with other test files can take: the wait is a deadline, not a speed check.
 */
const providerKeys = () => createRemoteJWKSet(new URL(`${sso.current.issuer}/jwks`), { timeoutDuration: 60_000 });

/** Waits until `clientId`'s one notice for `subjectId` is sent. @returns the logout token it delivered. */
async function deliveredTo(clientId: string, subjectId: string) {
  const notice = await sso.current.t.prisma.ssoLogoutNotice.findFirstOrThrow({ where: { clientId, subjectId } });
  await until(async () => !!(await sentAt(notice.id)), `the logout token to ${clientId} to be delivered`, 30_000);
  expect(await sso.current.t.prisma.ssoLogoutNotice.count({ where: { clientId, subjectId } })).toBe(1);
  const jwks = providerKeys();
  const tokens: string[] = [];
  for (const token of received.filter(Boolean)) {
    // Every token was signed by this provider: a failure here is the check's own (say, the key set's fetch).
    const verified = await jwtVerify(token, jwks, { issuer: sso.current.issuer });
    tokens.push(`${String(verified.payload.aud)}/${String(verified.payload.sub)}`);
    if (verified.payload.aud === clientId && verified.payload.sub === subjectId) return verified;
  }
  throw new Error(`no logout token to ${clientId} was received (received: ${tokens.join(', ') || 'none'})`);
}

const removeAll = (admin: Awaited<ReturnType<typeof signIn>>, userId: number) =>
  call(sso.current.t.app, admin, 'PUT', `/rest/secure/user_access/user/${userId}`, { userAccesses: [] });

const sentAt = async (id: number) =>
  (await sso.current.t.prisma.ssoLogoutNotice.findUniqueOrThrow({ where: { id } })).sentAt;

afterAll(async () => {
  await stopWorker?.();
  await connection?.close();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('back-channel logout (issue 22)', () => {
  it('sends a signed logout token to the system when the removal commits, retrying while it is down', async () => {
    answers = [503];
    const system = await registerSystem(sso.current.t, { backchannelLogoutUri: `http://localhost:${port}/logout` });
    const { user, admin } = await signedInto(system, 'ssobcl');
    const stopListener = listenForLogoutNotices({
      connectionString: sso.current.t.cfg.DATABASE_URL,
      prisma: sso.current.t.prisma,
      client,
      taskQueue: queue,
    });
    try {
      const res = await removeAll(admin, user.id);
      expect(res.statusCode, res.body).toBe(200);
      // Written with the removal; started by the listener on the commit, with no reconciler pass.
      const notice = await sso.current.t.prisma.ssoLogoutNotice.findFirstOrThrow({
        where: { clientId: system.clientId, subjectId: user.subjectId },
      });
      await until(async () => !!(await sentAt(notice.id)), 'the logout token to be delivered', 30_000);
    } finally {
      await stopListener();
    }
    expect(received.length).toBe(2); // the 503, then the delivery
    const { payload, protectedHeader } = await jwtVerify(received[1]!, providerKeys(), {
      issuer: sso.current.issuer,
      audience: system.clientId,
    });
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload.sub).toBe(user.subjectId);
    expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
    expect(payload).not.toHaveProperty('nonce');
  });

  it('delivers a notice written while no worker listened once the reconciler starts it', async () => {
    answers = [];
    const system = await registerSystem(sso.current.t, { backchannelLogoutUri: `http://localhost:${port}/logout` });
    const { user, admin } = await signedInto(system, 'ssobcr');
    expect((await removeAll(admin, user.id)).statusCode).toBe(200);
    const notice = await sso.current.t.prisma.ssoLogoutNotice.findFirstOrThrow({
      where: { clientId: system.clientId, subjectId: user.subjectId },
    });
    expect(notice.workflowStartedAt).toBeNull();
    await startLogoutNotice({ prisma: sso.current.t.prisma, client, taskQueue: queue }, notice);
    await until(async () => !!(await sentAt(notice.id)), 'the logout token to be delivered', 30_000);
  });

  it('says in discovery that it sends logout tokens, without a session id', async () => {
    const system = await registerSystem(sso.current.t);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    expect(config.serverMetadata()).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: false,
    });
  });

  it("sends a logout token when the person signs out of the portal, and ends the provider's session", async () => {
    answers = [];
    const system = await registerSystem(sso.current.t, { backchannelLogoutUri: `http://localhost:${port}/logout` });
    const { user, session, browser, config } = await signedInto(system, 'ssobcso');
    await listening(async () => {
      const out = await call(sso.current.t.app, session, 'POST', '/rest/secure/token/invalidate');
      expect(out.statusCode, out.body).toBe(200);
      const { payload } = await deliveredTo(system.clientId, user.subjectId);
      expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
      expect(payload).not.toHaveProperty('sid');
    });
    // Signed out of single sign-on too: a silent sign-in is refused to the system.
    const { url } = await authorizationRequest(config, 'openid');
    url.searchParams.set('prompt', 'none');
    const landed = new URL((await browser.follow(url.href)).url);
    expect(landed.href.startsWith(REDIRECT_URI), landed.href).toBe(true);
    expect(landed.searchParams.get('error')).toBe('login_required');
  });

  it('sends a logout token when the person logs out from a system (RP-initiated logout)', async () => {
    answers = [];
    const system = await registerSystem(sso.current.t, { backchannelLogoutUri: `http://localhost:${port}/logout` });
    const { user, browser, config, tokens } = await signedInto(system, 'ssobcrp');
    await listening(async () => {
      const end = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: POST_LOGOUT_URI,
      });
      const html = await (await browser.fetch(end.href)).text();
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const done = await browser.fetch(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
      });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')!.startsWith(POST_LOGOUT_URI)).toBe(true);
      await deliveredTo(system.clientId, user.subjectId);
    });
  });
});
