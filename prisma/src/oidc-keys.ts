/**
 * The single sign-on provider's signing keys (issue 22), shared by the API (the provider) and the worker (the
 * back-channel logout tokens): kept in `OidcSigningKey`, the private JWK encrypted with AES-256-GCM
 * under a key derived (HKDF-SHA-256) from OIDC_KEY_ENCRYPTION_KEY, never stored in the clear. The first API
 * process to start makes the first key under an advisory lock, so several processes agree on it. Rotation
 * (`rotateSigningKey`, run by `npm run oidc:rotate-key`) adds a new key that signs from then on and keeps the
 * old one published in the JWKS until every token it signed has expired.
 */
import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { PrismaClient } from '../generated/client/client';
import { openText, sealText } from './sealed';

export { deriveKey } from './sealed';

const LOCK_KEY = 2_202_201; // pg_advisory_xact_lock key of key creation (issue 22); a constant shared by processes.

const encrypt = (secret: string, plain: string): string => sealText(secret, 'signing-keys', plain);
const decrypt = (secret: string, stored: string): string => openText(secret, 'signing-keys', stored);

async function newKeyRow(secret: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = crypto.randomUUID();
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, publicJwk, privateJwk: encrypt(secret, JSON.stringify(privateJwk)) };
}

/** The key that signs now (the newest not retired), as a private JWK. @throws when there is none or it cannot be read. */
export async function currentSigningKey(prisma: PrismaClient, secret: string): Promise<JWK> {
  const row = await prisma.oidcSigningKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } });
  if (!row) throw new Error('no single sign-on signing key yet (the API makes the first one)');
  return JSON.parse(decrypt(secret, row.privateJwk)) as JWK;
}

/**
 * The private JWKs to hand the provider: the signing key first, then the retired ones still published.
 * Creates the first key when there is none. @throws when a stored key cannot be decrypted with `secret`.
 */
export async function loadSigningKeys(prisma: PrismaClient, secret: string): Promise<JWK[]> {
  const current = () =>
    prisma.oidcSigningKey.findMany({
      where: { OR: [{ retireAfter: null }, { retireAfter: { gt: new Date() } }] },
      orderBy: [{ retiredAt: { sort: 'asc', nulls: 'first' } }, { createdAt: 'desc' }],
    });
  let rows = await current();
  if (!rows.some((r) => !r.retiredAt)) {
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEY}::int4)`;
      if (await tx.oidcSigningKey.count({ where: { retiredAt: null } })) return;
      await tx.oidcSigningKey.create({ data: await newKeyRow(secret) });
    });
    rows = await current();
  }
  return rows.map((r) => JSON.parse(decrypt(secret, r.privateJwk)) as JWK);
}

/**
 * Rotates: a new key signs from now; the previous signing key stays published for `keepSeconds` (the longest
 * lifetime of what it signed: ID tokens and access tokens). @returns the new key's kid.
 */
export async function rotateSigningKey(prisma: PrismaClient, secret: string, keepSeconds: number): Promise<string> {
  const row = await newKeyRow(secret);
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEY}::int4)`;
    const now = new Date();
    await tx.oidcSigningKey.updateMany({
      where: { retiredAt: null },
      data: { retiredAt: now, retireAfter: new Date(now.getTime() + keepSeconds * 1000) },
    });
    await tx.oidcSigningKey.create({ data: row });
  });
  return row.kid;
}
