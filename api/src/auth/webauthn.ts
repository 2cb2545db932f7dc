/**
 * Passkeys and security keys (WebAuthn Level 3, through @simplewebauthn/server; docs/decisions.md "Passkeys"):
 * the relying party settings, the challenges kept in PostgreSQL (any API process verifies the answer; single
 * use; refused after WEBAUTHN_CHALLENGE_TTL_SECONDS), the verification of a registration and of an assertion
 * (user verification always required), and the signature counter: one that does not move forward (when
 * either side is non-zero) is refused and audited as a possibly cloned key.
 */
import crypto from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import type { PasskeyAssertion, PasskeyRegistration } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { ApiConfig } from '../config';
import { recordAudit } from '../shared/audit-log';
import { digest } from './session';

/** WebAuthn options in their JSON form (PublicKeyCredential{Creation,Request}OptionsJSON), for the browser. */
export type WebAuthnOptionsJSON = { challenge: string } & Record<string, unknown>;

export type ChallengePurpose = 'REGISTER' | 'SECOND_STEP' | 'SIGN_IN' | 'SIGNATURE';

/** The purposes an assertion answers. */
export type AssertionPurpose = 'SECOND_STEP' | 'SIGN_IN' | 'SIGNATURE';

/** The relying party: its id (a host name), the origins the browser may report, and the challenge TTL (ms). */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  challengeTtlMs: number;
}

/** WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS, defaulting to PORTAL_URL's host and origin. */
export function relyingPartyOf(cfg: ApiConfig): RelyingParty {
  const portal = new URL(cfg.PORTAL_URL);
  return {
    id: cfg.WEBAUTHN_RP_ID ?? portal.hostname,
    name: cfg.SECOND_FACTOR_ISSUER,
    origins: cfg.WEBAUTHN_ORIGINS.length ? cfg.WEBAUTHN_ORIGINS.map((o) => new URL(o).origin) : [portal.origin],
    challengeTtlMs: cfg.WEBAUTHN_CHALLENGE_TTL_SECONDS * 1000,
  };
}

const TRANSPORTS: readonly AuthenticatorTransport[] = ['ble', 'hybrid', 'internal', 'nfc', 'usb'];
/** The transports WebAuthn names, out of what a browser reported (unknown ones are dropped). */
const knownTransports = (reported: readonly string[] | undefined): AuthenticatorTransport[] =>
  (reported ?? []).filter((t): t is AuthenticatorTransport => (TRANSPORTS as readonly string[]).includes(t));

/**
 * The WebAuthn user handle of a portal user: opaque (the SHA-256 of a fixed prefix and the user's id, so no
 * name or address is handed to the authenticator) and the same for all of a person's credentials, so an
 * authenticator replaces its earlier passkey of that person rather than keeping two.
 */
const userHandleOf = (userId: number): Uint8Array<ArrayBuffer> =>
  new Uint8Array(crypto.createHash('sha256').update(`portal-user:${userId}`).digest());

/**
 * Stores a new challenge for `purpose` (the session's digest for REGISTER and SECOND_STEP; `label` is the
 * passkey's name for REGISTER) and drops expired ones. @returns the challenge's bytes (the options carry
 * them base64url, as the client data names them).
 */
async function issueChallenge(
  prisma: PrismaClient,
  rp: RelyingParty,
  purpose: ChallengePurpose,
  owner: { userId?: number; sessionToken?: string; label?: string } = {},
  bound?: Buffer,
): Promise<Uint8Array<ArrayBuffer>> {
  // A signature's challenge ends with the SHA-256 of what is signed (docs/decisions.md "Electronic signatures").
  const bytes = new Uint8Array(Buffer.concat([crypto.randomBytes(32), bound ?? Buffer.alloc(0)]));
  const challenge = Buffer.from(bytes).toString('base64url');
  await prisma.webAuthnChallenge.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  await prisma.webAuthnChallenge.create({
    data: {
      id: digest(challenge),
      purpose,
      portalUserId: owner.userId ?? null,
      sessionId: owner.sessionToken ? digest(owner.sessionToken) : null,
      label: owner.label ?? null,
      expiresAt: new Date(Date.now() + rp.challengeTtlMs),
    },
  });
  return bytes;
}

/**
 * Takes (deletes) the challenge `clientDataJSON` names, when it was issued for `purpose` to this session (none
 * for SIGN_IN): one DELETE ... RETURNING, so of two answers to one challenge, on any processes, one gets it.
 * @returns the challenge and its row, or null (unreadable client data, unknown, used, foreign or expired).
 */
async function takeChallenge(
  prisma: PrismaClient,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  sessionToken?: string,
): Promise<{ challenge: string; label: string | null; userId: number | null } | null> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string' || challenge.length > 128) return null;
  const session = sessionToken ? digest(sessionToken) : null;
  const rows = await prisma.$queryRaw<Array<{ label: string | null; portalUserId: number | null; expiresAt: Date }>>`
    DELETE FROM "WebAuthnChallenge"
     WHERE "id" = ${digest(challenge)} AND "purpose" = ${purpose}::"WebAuthnPurpose"
       AND "sessionId" IS NOT DISTINCT FROM ${session}
    RETURNING "label", "portalUserId", "expiresAt"`;
  const row = rows[0];
  if (!row || row.expiresAt <= new Date()) return null;
  return { challenge, label: row.label, userId: row.portalUserId };
}

/**
 * The options of adding a passkey for `user` (the label kept with the challenge): user verification
 * required, a discoverable credential preferred (so it can sign in alone), no attestation asked (the portal
 * trusts no vendor list), the person's own credentials excluded.
 */
export async function registrationOptions(
  prisma: PrismaClient,
  rp: RelyingParty,
  user: { id: number; username: string; displayName: string },
  sessionToken: string,
  label: string,
): Promise<WebAuthnOptionsJSON> {
  const existing = await prisma.webAuthnCredential.findMany({
    where: { factor: { portalUserId: user.id, confirmedAt: { not: null } } },
    select: { credentialId: true, transports: true },
  });
  const challenge = await issueChallenge(prisma, rp, 'REGISTER', { userId: user.id, sessionToken, label });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.displayName,
    userID: userHandleOf(user.id),
    challenge,
    timeout: rp.challengeTtlMs,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: knownTransports(c.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  return { ...options };
}

/** A verified new credential, as stored (WebAuthnCredential). */
export interface NewCredential {
  label: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  aaguid: string;
  backupEligible: boolean;
  backedUp: boolean;
}

/**
 * Verifies a registration answering this session's REGISTER challenge: origin, rp id, user presence and
 * verification, attestation 'none' or a valid statement. Never throws on a hostile payload.
 * @returns the credential to store, or null when it is refused (the challenge is used either way).
 */
export async function verifyRegistration(
  prisma: PrismaClient,
  rp: RelyingParty,
  credential: PasskeyRegistration,
  sessionToken: string,
): Promise<NewCredential | null> {
  const taken = await takeChallenge(prisma, credential.response.clientDataJSON, 'REGISTER', sessionToken);
  if (!taken || taken.label === null) return null;
  try {
    const verified = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: taken.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified.verified) return null;
    const info = verified.registrationInfo;
    // The library reads the id from the authenticator data; a browser posts the same one, anything else lies.
    if (info.credential.id !== credential.id || credential.rawId !== credential.id) return null;
    return {
      label: taken.label,
      credentialId: info.credential.id,
      publicKey: new Uint8Array(info.credential.publicKey),
      counter: info.credential.counter,
      transports: knownTransports(credential.response.transports),
      aaguid: info.aaguid,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backedUp: info.credentialBackedUp,
    };
  } catch {
    // Malformed CBOR or client data, a wrong origin or rp id, a missing flag: the library throws; refused.
    return null;
  }
}

/**
 * The options of an assertion: for the second step of `userId` (their confirmed credentials allowed, the
 * challenge bound to the session), or for a passkey sign-in (no user: a discoverable credential answers).
 */
export async function assertionOptions(
  prisma: PrismaClient,
  rp: RelyingParty,
  purpose: AssertionPurpose,
  owner: { userId: number; sessionToken: string } | null,
  bound?: Buffer,
): Promise<WebAuthnOptionsJSON> {
  const allowed = owner
    ? await prisma.webAuthnCredential.findMany({
        where: { factor: { portalUserId: owner.userId, confirmedAt: { not: null } } },
        select: { credentialId: true, transports: true },
      })
    : [];
  const challenge = await issueChallenge(prisma, rp, purpose, owner ?? {}, bound);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    challenge,
    timeout: rp.challengeTtlMs,
    userVerification: 'required',
    allowCredentials: allowed.map((c) => ({ id: c.credentialId, transports: knownTransports(c.transports) })),
  });
  return { ...options };
}

/** A verified assertion: whose factor answered, and whether it is a synced passkey (RFC 8176 `swk`). */
export interface AcceptedAssertion {
  factorId: number;
  userId: number;
  /** `swk` for a backup-eligible (synced) passkey, `hwk` for a device-bound key (docs/decisions.md). */
  amr: 'hwk' | 'swk';
}

/**
 * Verifies an assertion answering a `purpose` challenge (of this session for SECOND_STEP) with a confirmed
 * credential (of `userId` when given): origin, rp id, user presence and verification, the signature. A
 * signed counter that does not move forward is refused and audited (WEBAUTHN_COUNTER_REGRESSED). Accepted:
 * the counter, backup state and last use are stored. Never throws on a hostile payload (only on the
 * database). @returns the factor, or null when refused.
 */
export async function verifyAssertion(
  prisma: PrismaClient,
  rp: RelyingParty,
  assertion: PasskeyAssertion,
  purpose: AssertionPurpose,
  owner: { userId: number; sessionToken: string } | null,
  bound?: Buffer,
): Promise<AcceptedAssertion | null> {
  const taken = await takeChallenge(prisma, assertion.response.clientDataJSON, purpose, owner?.sessionToken);
  if (!taken) return null;
  if (bound && !Buffer.from(taken.challenge, 'base64url').subarray(32).equals(bound)) return null;
  const stored = await prisma.webAuthnCredential.findFirst({
    where: {
      credentialId: assertion.id,
      factor: { confirmedAt: { not: null }, ...(owner ? { portalUserId: owner.userId } : {}) },
    },
    include: { factor: { include: { user: { select: { id: true, username: true } } } } },
  });
  if (!stored) return null;
  let newCounter: number;
  let backedUp: boolean;
  try {
    const verified = await verifyAuthenticationResponse({
      response: assertion as AuthenticationResponseJSON,
      expectedChallenge: taken.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      // Counter 0 to the library: it checks the counter before the signature, and only a signed counter may
      // count as a cloned key. The portal compares it below, once the signature is proven.
      credential: { id: stored.credentialId, publicKey: new Uint8Array(stored.publicKey), counter: 0 },
      requireUserVerification: true,
    });
    if (!verified.verified) return null;
    newCounter = verified.authenticationInfo.newCounter;
    backedUp = verified.authenticationInfo.credentialBackedUp;
  } catch {
    return null;
  }
  const old = stored.counter;
  const next = BigInt(newCounter);
  // WebAuthn §6.1.1: a counter that is not greater than the stored one (when either is non-zero) means two
  // authenticators may hold the key. Conditional, so of two assertions raced on two processes one counts.
  const moved =
    (old === 0n && next === 0n) || next > old
      ? await prisma.$executeRaw`
          UPDATE "WebAuthnCredential" SET "counter" = ${next}, "backedUp" = ${backedUp}
           WHERE "factorId" = ${stored.factorId} AND ("counter" < ${next} OR ("counter" = 0 AND ${next} = 0))`
      : 0;
  if (moved !== 1) {
    await prisma.$transaction((tx) =>
      recordAudit(
        tx,
        { userId: stored.factor.user.id, username: stored.factor.user.username },
        {
          entityType: 'PortalUser',
          entityId: stored.factor.user.id,
          action: 'WEBAUTHN_COUNTER_REGRESSED',
          after: {
            factorId: stored.factorId,
            label: stored.factor.label,
            storedCounter: String(old),
            reportedCounter: newCounter,
          },
        },
      ),
    );
    return null;
  }
  await prisma.secondFactor.update({ where: { id: stored.factorId }, data: { lastUsedAt: new Date() } });
  return { factorId: stored.factorId, userId: stored.factor.user.id, amr: stored.backupEligible ? 'swk' : 'hwk' };
}
