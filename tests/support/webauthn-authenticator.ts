/**
 * A software authenticator for the tests (WebAuthn Level 3 §6): ES256 keys from node:crypto, attestation
 * format 'none', the attestation object and COSE key encoded with the CBOR library @simplewebauthn/server
 * itself uses (`isoCBOR`), so the API's real verification runs on what it produces. It plays the browser
 * too: the client data names the `origin` and the challenge of the options the API answered. Every part a
 * hostile client could bend is an override: origin, rp id, type, challenge, the user-verified flag, the
 * signature counter.
 */
import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, backup eligible and state, attested. */
const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 } as const;

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => crypto.createHash('sha256').update(data).digest();

/** One credential the authenticator holds. */
export interface SoftCredential {
  id: string;
  privateKey: crypto.KeyObject;
  /** The COSE_Key (RFC 9053 §7.1: EC2, P-256, ES256), CBOR-encoded. */
  cosePublicKey: Uint8Array;
  counter: number;
  userHandle: string | undefined;
}

/** What a single answer may bend (hostile tests). */
export interface Bend {
  origin?: string;
  rpId?: string;
  type?: string;
  challenge?: string;
  /** The user-verified flag (default set). */
  uv?: boolean;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** Registration: the key and id of a credential already held (one authenticator registering twice). */
  reuse?: SoftCredential;
}

/** The options' fields the authenticator reads (the API's WebAuthn options JSON). */
interface OptionsJSON {
  challenge: string;
  user?: { id: string };
  allowCredentials?: Array<{ id: string }>;
}

/**
 * An authenticator bound to one relying party and browser origin. `backupEligible`: a synced passkey (flags BE
 * and BS), whose counter stays 0 as the platforms' passkeys report it; otherwise a security key counting up.
 */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    readonly rpId: string,
    readonly origin: string,
    readonly opts: { backupEligible?: boolean; aaguid?: Buffer } = {},
  ) {}

  private flags(bend: Bend, attested: boolean): number {
    let flags = FLAG.up | (bend.uv === false ? 0 : FLAG.uv);
    if (this.opts.backupEligible) flags |= FLAG.be | FLAG.bs;
    return attested ? flags | FLAG.at : flags;
  }

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    const data = {
      type: bend.type ?? type,
      challenge: bend.challenge ?? challenge,
      origin: bend.origin ?? this.origin,
    };
    return Buffer.from(JSON.stringify({ ...data, crossOrigin: false }));
  }

  private counterBytes(counter: number): Buffer {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(counter);
    return bytes;
  }

  /**
   * A new credential answering registration `options` (navigator.credentials.create). @returns the
   * RegistrationResponseJSON a browser posts, and the credential held.
   */
  register(options: OptionsJSON, bend: Bend = {}): { json: RegistrationJSON; credential: SoftCredential } {
    const { privateKey, publicKey } = bend.reuse
      ? { privateKey: bend.reuse.privateKey, publicKey: crypto.createPublicKey(bend.reuse.privateKey) }
      : crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = bend.reuse ? Buffer.from(bend.reuse.id, 'base64url') : crypto.randomBytes(16);
    const credential: SoftCredential = {
      id: b64url(id),
      privateKey,
      cosePublicKey: cose,
      counter: 0,
      userHandle: options.user?.id,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(bend.rpId ?? this.rpId),
      Buffer.from([this.flags(bend, true)]),
      this.counterBytes(bend.counter ?? 0),
      this.opts.aaguid ?? Buffer.alloc(16),
      idLength,
      id,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.credentials.push(credential);
    return {
      credential,
      json: {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, bend)),
          attestationObject: b64url(attestationObject),
          transports: ['usb'],
        },
        authenticatorAttachment: 'cross-platform',
        clientExtensionResults: {},
      },
    };
  }

  /**
   * An assertion answering authentication `options` (navigator.credentials.get) with `credential` (default:
   * the first allowed one held, else the first held: a discoverable credential). @returns the
   * AuthenticationResponseJSON a browser posts.
   */
  assert(options: OptionsJSON, bend: Bend = {}, credential?: SoftCredential): AssertionJSON {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const cred =
      credential ?? this.credentials.find((c) => allowed.has(c.id)) ?? (allowed.size ? undefined : this.credentials[0]);
    if (!cred) throw new Error('the authenticator holds no credential the options allow');
    const counter = bend.counter ?? (this.opts.backupEligible ? 0 : cred.counter + 1);
    cred.counter = Math.max(cred.counter, counter);
    const authData = Buffer.concat([
      sha256(bend.rpId ?? this.rpId),
      Buffer.from([this.flags(bend, false)]),
      this.counterBytes(counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend);
    // ES256: ECDSA P-256 with SHA-256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded (§6.3.3).
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(cred.userHandle ? { userHandle: cred.userHandle } : {}),
      },
      authenticatorAttachment: 'cross-platform',
      clientExtensionResults: {},
    };
  }
}

/** RegistrationResponseJSON, as a browser posts it. */
export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports?: string[] };
  authenticatorAttachment?: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, unknown>;
}

/** AuthenticationResponseJSON, as a browser posts it. */
export interface AssertionJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment?: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, unknown>;
}
