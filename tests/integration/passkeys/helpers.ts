/**
 * Helpers of the passkey tests (docs/decisions.md "Passkeys"): the API's WebAuthn settings (rp id `localhost`,
 * the origin the software authenticator claims: browsers refuse an IP address as an rp id, and the test stack
 * serves the portal on 127.0.0.1), password sign-ins, and a passkey enrolled through the real routes up to
 * its mailed confirmation.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { SECOND_FACTOR_TEXTS as T } from '@portal/contract';
import { SoftAuthenticator, type SoftCredential } from '../../support/webauthn-authenticator';
import type { TestUser } from '../auth-helpers';
import { waitForMail } from '../fixtures';
import { type Session, type TestApi, caller, signInCall } from '../harness';

export const RP_ID = 'localhost';
export const ORIGIN = 'http://localhost:8080';
export const KEY = crypto.randomBytes(32).toString('base64url');

/** The environment of an API with passkeys on `RP_ID` / `ORIGIN`. */
export const passkeyEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  SECOND_FACTOR_KEY: KEY,
  WEBAUTHN_RP_ID: RP_ID,
  WEBAUTHN_ORIGINS: ORIGIN,
  ...extra,
});

/** A software authenticator of the test relying party (`backupEligible`: a synced passkey). */
export const authenticator = (backupEligible = false): SoftAuthenticator =>
  new SoftAuthenticator(RP_ID, ORIGIN, { backupEligible });

/** Signs in with the password on `app`. @returns the session and the answer's body. */
export async function passwordSignIn(app: TestApi, user: TestUser): Promise<Session> {
  const res = await signInCall(app.app, user.username, user.password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

export const call = (app: TestApi, s: Session | null, method: 'GET' | 'POST', url: string, body?: object) =>
  caller(app.app)(s, method, url, body);

/** POST the password again for a new passkey's options. @returns them (expects 200). */
export async function registrationOptions(app: TestApi, s: Session, user: TestUser, label = 'Blue key') {
  const res = await call(app, s, 'POST', '/rest/secure/second_factor/webauthn/options', {
    password: user.password,
    label,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; user: { id: string }; rp: { id: string } } & Record<
    string,
    unknown
  >;
}

/** Posts a new credential. */
export const postCredential = (app: TestApi, s: Session, credential: object) =>
  call(app, s, 'POST', '/rest/secure/second_factor/webauthn', { credential });

/** The token of the confirmation link in the person's latest confirmation mail. */
export async function mailedToken(email: string): Promise<string> {
  const mail = await waitForMail(email, T.mailSubjectConfirm);
  const token = /\/app\/confirm-sign-in-method\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  return token!;
}

/**
 * Adds a passkey of `auth` for `user` through the routes; a first factor is confirmed by the mailed link.
 * @returns the credential held by the authenticator, and the recovery codes when the link issued them.
 */
export async function enrolPasskey(
  app: TestApi,
  user: TestUser,
  auth: SoftAuthenticator,
  s?: Session,
): Promise<{ credential: SoftCredential; session: Session }> {
  const session = s ?? (await passwordSignIn(app, user));
  const options = await registrationOptions(app, session, user);
  const { json, credential } = auth.register(options);
  const added = await postCredential(app, session, json);
  expect(added.statusCode, added.body).toBe(200);
  if (added.json().state === 'AWAITING_EMAIL') {
    const token = await mailedToken(user.email);
    const confirmed = await call(app, session, 'POST', '/rest/secure/second_factor/confirm_email', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  }
  return { credential, session };
}

/** The options of the second step's passkey answer on session `s`. */
export async function stepOptions(app: TestApi, s: Session) {
  const res = await call(app, s, 'POST', '/rest/secure/token/second_factor/webauthn/options');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; allowCredentials: Array<{ id: string }> };
}

/** The options of a passkey sign-in (no session). */
export async function signInOptions(app: TestApi) {
  const res = await app.app.inject({ method: 'POST', url: '/rest/token/webauthn/options' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options as { challenge: string; allowCredentials?: Array<{ id: string }> };
}

/** POST /rest/token/webauthn with `assertion`. */
export const passkeySignInCall = (app: TestApi, assertion: object) =>
  app.app.inject({ method: 'POST', url: '/rest/token/webauthn', payload: { assertion } });

/** The session of a successful sign-in answer. */
export function sessionOf(res: { cookies: Array<{ name: string; value: string }>; json(): unknown }): Session {
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  const body = res.json() as Record<string, unknown>;
  return { cookie: `pg_session=${cookie.value}`, xsrf: body.xsrfToken as string, body };
}

/** The audit rows about `userId`, oldest first. */
export const audits = (t: TestApi, userId: number) =>
  t.prisma.auditEvent.findMany({
    where: { entityType: 'PortalUser', entityId: String(userId) },
    orderBy: { id: 'asc' },
  });
