/**
 * The audit seals' Ed25519 keys (docs/decisions.md "A tamper-evident audit trail"). Configuration holds the
 * raw 32-byte keys as base64url: the private key (`AUDIT_SEAL_PRIVATE_KEY`) only where seals are written (the
 * worker), the public keys (`AUDIT_SEAL_PUBLIC_KEYS`, every key ever used, for verifying old seals) wherever
 * they are verified. A key's id is the first 16 hex digits of SHA-256 over its raw public key.
 */
import crypto from 'node:crypto';

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

export interface SealSigningKey {
  keyId: string;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  /** The raw public key, base64url (what AUDIT_SEAL_PUBLIC_KEYS lists). */
  publicRaw: string;
}

const rawOf = (value: string, what: string): Buffer => {
  const raw = Buffer.from(value.trim(), 'base64url');
  if (raw.length !== 32) throw new Error(`${what} must be 32 bytes, base64url (got ${raw.length})`);
  return raw;
};

/** The id of a raw public key. */
export const sealKeyId = (publicRaw: Buffer): string =>
  crypto.createHash('sha256').update(publicRaw).digest('hex').slice(0, 16);

/** A public key from its raw base64url form. @throws Error when it is not 32 bytes. */
export function sealPublicKey(base64url: string): { keyId: string; publicKey: crypto.KeyObject } {
  const raw = rawOf(base64url, 'an audit seal public key');
  const publicKey = crypto.createPublicKey({ key: Buffer.concat([SPKI_ED25519, raw]), format: 'der', type: 'spki' });
  return { keyId: sealKeyId(raw), publicKey };
}

/** The signing key from its raw base64url seed. @throws Error when it is not 32 bytes. */
export function sealSigningKey(base64url: string): SealSigningKey {
  const seed = rawOf(base64url, 'AUDIT_SEAL_PRIVATE_KEY');
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = crypto.createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519.length);
  return { keyId: sealKeyId(raw), privateKey, publicKey, publicRaw: raw.toString('base64url') };
}

/** A new key pair, base64url: what `npm run up` and the test stacks configure. */
export function newSealKeyPair(): { privateKey: string; publicKey: string } {
  const seed = crypto.randomBytes(32).toString('base64url');
  return { privateKey: seed, publicKey: sealSigningKey(seed).publicRaw };
}

/** The verifying keys by id, from a comma-separated list of raw public keys. */
export function sealPublicKeys(list: string): Map<string, crypto.KeyObject> {
  const keys = new Map<string, crypto.KeyObject>();
  for (const item of list.split(',').filter((s) => s.trim())) {
    const { keyId, publicKey } = sealPublicKey(item);
    keys.set(keyId, publicKey);
  }
  return keys;
}

/** Ed25519 signature (base64url) of a seal's hash (hex). */
export const signSealHash = (key: SealSigningKey, hashHex: string): string =>
  crypto.sign(null, Buffer.from(hashHex, 'hex'), key.privateKey).toString('base64url');

/** Whether `signature` is `publicKey`'s signature of `hashHex`. */
export function sealSignatureValid(publicKey: crypto.KeyObject, hashHex: string, signature: string): boolean {
  try {
    return crypto.verify(null, Buffer.from(hashHex, 'hex'), publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}
