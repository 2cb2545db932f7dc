import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashClientSecret, newClientSecret, verifyClientSecret } from './client-secret';

describe('client secrets', () => {
  it('verifies the secret a digest was made from and nothing else', async () => {
    const secret = newClientSecret();
    const stored = await hashClientSecret(secret);
    expect(stored).toMatch(/^sha256\$/);
    expect(stored).not.toContain(secret);
    expect(await verifyClientSecret(stored, secret)).toBe(true);
    expect(await verifyClientSecret(stored, `${secret}x`)).toBe(false);
    expect(await verifyClientSecret('plain', secret)).toBe(false);
  });

  it('still verifies a digest of the older scrypt form', async () => {
    const secret = newClientSecret();
    const salt = crypto.randomBytes(16);
    const digest = (await promisify(crypto.scrypt)(secret, salt, 32)) as Buffer;
    const stored = `scrypt$${salt.toString('base64url')}$${digest.toString('base64url')}`;
    expect(await verifyClientSecret(stored, secret)).toBe(true);
    expect(await verifyClientSecret(stored, 'other')).toBe(false);
  });
});
