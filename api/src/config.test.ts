import { describe, expect, it } from 'vitest';
import { TrustProxySchema } from './config';
import { loginDigest, normaliseLogin } from './features/auth/unknown-failures';

describe('TRUST_PROXY (issue 13)', () => {
  it('trusts no hop by default, a hop count, or a list of addresses, ranges and range names', () => {
    expect(TrustProxySchema.parse(undefined)).toBe(false);
    expect(TrustProxySchema.parse('')).toBe(false);
    expect(TrustProxySchema.parse('0')).toBe(false);
    expect(TrustProxySchema.parse('1')).toBe(1);
    expect(TrustProxySchema.parse('10.0.0.1, 172.16.0.0/12,::1,loopback')).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      '::1',
      'loopback',
    ]);
  });

  it('refuses anything else', () => {
    for (const bad of ['true', '*', '10.0.0.1/33', 'example.org', '1.2.3.4/8/9', '::1/129']) {
      expect(TrustProxySchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('the key of an unknown sign-in name', () => {
  it('is the same for spellings the directory treats alike, and never the name', () => {
    const cfg = { LDAP_ADMIN_PASSWORD: 'secret' };
    expect(normaliseLogin('  Nobody.Here ')).toBe('nobody.here');
    expect(loginDigest(cfg, ' NoBody ')).toBe(loginDigest(cfg, 'nobody'));
    expect(loginDigest(cfg, 'nobody')).not.toBe(loginDigest(cfg, 'nobody2'));
    expect(loginDigest(cfg, 'nobody')).not.toBe(loginDigest({ LDAP_ADMIN_PASSWORD: 'other' }, 'nobody'));
    expect(loginDigest(cfg, 'nobody')).toMatch(/^[0-9a-f]{64}$/);
  });
});
