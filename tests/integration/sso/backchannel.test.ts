/**
 * Back-channel logout (issue 22; OpenID Connect Back-Channel Logout 1.0): removing a person's access to a
 * system that registered a back-channel logout URI writes a notice in the writer's transaction; its
 * `sso-logout-<id>` workflow (started as the worker's reconciler starts it, run by a real worker) POSTs a logout
 * token signed with the provider's key, retried while the system answers an error. The system here is a real
 * HTTP server on localhost that first answers 503.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { startLogoutNotice } from '@portal/worker';
import { call, signIn } from '../auth-helpers';
import { startWorker } from '../harness';
import { uniqueQueue, until } from '../lifecycle/support';
import {
  Browser,
  REDIRECT_URI,
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
}, 60_000);

afterAll(async () => {
  await stopWorker?.();
  await connection?.close();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('back-channel logout (issue 22)', () => {
  it('sends a signed logout token to the system after a removal, retrying while it is down', async () => {
    answers = [503];
    const system = await registerSystem(sso.current.t, { backchannelLogoutUri: `http://localhost:${port}/logout` });
    const { user, session } = await person(sso.current.t, 'ssobcl', system.systemId);
    const config = await discover(sso.current.issuer, system.clientId, system.secret);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    await signInThroughPortal(new Browser(sso.current.base), url, session);

    const admin = await signIn(sso.current.t.app, 'reviewer');
    const res = await call(sso.current.t.app, admin, 'PUT', `/rest/secure/user_access/user/${user.id}`, {
      userAccesses: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    // Written with the removal, before any send.
    const notice = await sso.current.t.prisma.ssoLogoutNotice.findFirstOrThrow({
      where: { clientId: system.clientId, subjectId: user.subjectId },
    });
    expect(notice.sentAt).toBeNull();

    const client = new Client({ connection, namespace: sso.current.t.cfg.TEMPORAL_NAMESPACE });
    await startLogoutNotice({ prisma: sso.current.t.prisma, client, taskQueue: queue }, notice);
    await until(
      async () => !!(await sso.current.t.prisma.ssoLogoutNotice.findUniqueOrThrow({ where: { id: notice.id } })).sentAt,
      'the logout token to be delivered',
      30_000,
    );
    expect(received.length).toBe(2); // the 503, then the delivery
    const jwks = createRemoteJWKSet(new URL(`${sso.current.issuer}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(received[1]!, jwks, {
      issuer: sso.current.issuer,
      audience: system.clientId,
    });
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload.sub).toBe(user.subjectId);
    expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
    expect(payload).not.toHaveProperty('nonce');
  });
});
