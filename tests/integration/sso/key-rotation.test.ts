/**
 * The provider's signing keys (issue 22): stored encrypted, kept across restarts, and a rotated key published
 * beside the old one. Run alone (vitest.config.ts, INTEGRATION_ALONE): the rotation changes the key every
 * provider and worker of the shared database signs with, so tokens another file's API checks would carry a key
 * its JWKS, loaded at its start, does not yet hold.
 */
import { describe, expect, it } from 'vitest';
import { rotateSigningKey } from '../../../api/src/features/oidc/keys';
import { startSsoApi, useSsoStack } from './support';

const sso = useSsoStack();

describe("the provider's signing keys", () => {
  it('keeps its keys encrypted and across restarts, and publishes the old key beside a rotated one', async () => {
    const jwks = async (issuer: string) =>
      ((await (await fetch(`${issuer}/jwks`)).json()) as { keys: Array<{ kid: string; d?: string }> }).keys;
    const before = await jwks(sso.current.issuer);
    expect(before.every((k) => k.d === undefined)).toBe(true);
    for (const row of await sso.current.t.prisma.oidcSigningKey.findMany()) {
      expect(row.privateJwk).not.toMatch(/"d"|"kty"/);
    }
    const kid = await rotateSigningKey(sso.current.t.prisma, sso.current.t.cfg.OIDC_KEY_ENCRYPTION_KEY!, 3600);
    const restarted = await startSsoApi();
    try {
      const after = (await jwks(restarted.issuer)).map((k) => k.kid);
      expect(after[0]).toBe(kid);
      expect(after).toEqual(expect.arrayContaining(before.map((k) => k.kid)));
    } finally {
      await restarted.close();
    }
  });
});
