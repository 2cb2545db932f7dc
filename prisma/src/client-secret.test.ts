import { describe, expect, it } from 'vitest';
import { hashClientSecret, newClientSecret, verifyClientSecret } from './client-secret';

describe('client secrets', () => {
  it('verifies the secret a digest was made from and nothing else', async () => {
    const secret = newClientSecret();
    const stored = await hashClientSecret(secret);
    expect(stored).not.toContain(secret);
    expect(await verifyClientSecret(stored, secret)).toBe(true);
    expect(await verifyClientSecret(stored, `${secret}x`)).toBe(false);
    expect(await verifyClientSecret('plain', secret)).toBe(false);
  });
});
