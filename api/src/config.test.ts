import { describe, expect, it } from 'vitest';
import { ApiConfigSchema, loadApiConfig, TrustProxySchema } from './config';
import { proxyCapability, proxyRulesOf } from './shared/proxy-capability';
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

describe('the proxy lists (000 §6, 001 §6)', () => {
  const parse = (env: Record<string, string>) =>
    proxyRulesOf(
      ApiConfigSchema.pick({
        PROXY_STUDY_ROLES: true,
        PROXY_PORTAL_ROLES: true,
        PROXY_ALL_USERS_PORTAL_ROLES: true,
      }).parse(env),
    );

  it("default to the spec's names", () => {
    expect(parse({})).toEqual({
      studyRoles: ['LAO Staff'],
      portalRoles: ['Administrator'],
      allUsersPortalRoles: ['Proxy Access-Change Request User'],
    });
  });

  it('read comma-separated names, trimmed, with empty entries dropped; empty is none', () => {
    const rules = parse({ PROXY_STUDY_ROLES: ' LAO Staff, Data Manager ,,', PROXY_PORTAL_ROLES: '' });
    expect(rules.studyRoles).toEqual(['LAO Staff', 'Data Manager']);
    expect(rules.portalRoles).toEqual([]);
    expect(proxyCapability(rules, ['Administrator'], ['Data Manager'])).toEqual({
      canSubmit: true,
      forAllUsers: false,
    });
    expect(proxyCapability(rules, ['Administrator'], [])).toEqual({ canSubmit: false, forAllUsers: false });
    expect(proxyCapability(rules, ['Proxy Access-Change Request User'], [])).toEqual({
      canSubmit: true,
      forAllUsers: true,
    });
  });

  it('refuses a name longer than a study role name may be', () => {
    expect(() => parse({ PROXY_STUDY_ROLES: 'x'.repeat(129) })).toThrow();
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

describe('the e-learning settings (README "Dashboard resources")', () => {
  const BASE = {
    DATABASE_URL: 'postgres://portal@127.0.0.1:5432/portal',
    LDAP_URL: 'ldap://127.0.0.1:389',
    LDAP_ADMIN_PASSWORD: 'secret',
    ELEARNING_URL_KEY: 'k'.repeat(32),
  };
  const problems = (env: Record<string, string>): string => {
    try {
      loadApiConfig(env);
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('require the key signing e-learning paths: never derived from another setting', () => {
    const { ELEARNING_URL_KEY: _key, ...withoutKey } = BASE;
    expect(problems(withoutKey)).toMatch(/ELEARNING_URL_KEY/);
    expect(problems({ ...BASE, ELEARNING_URL_KEY: 'short' })).toMatch(/ELEARNING_URL_KEY: must be at least 32/);
    expect(problems(BASE)).toBe('');
  });

  it('refuse in production an e-learning origin on the portal’s own site (the browser would send it the session cookie)', () => {
    const production = { ...BASE, NODE_ENV: 'production', PORTAL_URL: 'https://portal.network.example.org' };
    for (const origin of [
      'https://learning.network.example.org',
      'https://network.example.org:8443',
      'https://portal.network.example.org:8081',
      'https://a.b.example.org',
    ]) {
      expect(problems({ ...production, ELEARNING_ORIGIN: origin }), origin).toMatch(
        /ELEARNING_ORIGIN: must be another site than PORTAL_URL \(example\.org\)/,
      );
    }
    for (const origin of ['https://network-learning.example.net', 'https://example.co.uk']) {
      expect(problems({ ...production, ELEARNING_ORIGIN: origin }), origin).toBe('');
    }
    // Sites under a public suffix are each their own site.
    expect(
      problems({
        ...production,
        PORTAL_URL: 'https://portal.github.io',
        ELEARNING_ORIGIN: 'https://learning.github.io',
      }),
    ).toBe('');
    expect(
      problems({ ...production, PORTAL_URL: 'http://localhost:8080', ELEARNING_ORIGIN: 'http://localhost:8081' }),
    ).toMatch(/ELEARNING_ORIGIN: must be another site than PORTAL_URL \(localhost\)/);
    // Outside production the local stack's two loopback names pass, and one of them twice too (tests, demos).
    expect(problems({ ...BASE, PORTAL_URL: 'http://localhost:8080', ELEARNING_ORIGIN: 'http://localhost:8081' })).toBe(
      '',
    );
  });
});

describe('the captcha (001 §2.1, §7)', () => {
  it('refuses RECAPTCHA_SECRET at start-up: the browser renders only the self-hosted ALTCHA the API verifies', () => {
    const parsed = ApiConfigSchema.safeParse({ RECAPTCHA_SECRET: 'a-google-secret' });
    const issue = parsed.error?.issues.find((i) => i.path[0] === 'RECAPTCHA_SECRET');
    expect(issue?.message).toMatch(/ALTCHA/);
  });
});

describe('the organisation email domains (001 §4, §9)', () => {
  const parse = (env: Record<string, string>) =>
    ApiConfigSchema.pick({ ORGANISATION_EMAIL_DOMAINS: true }).safeParse(env);

  it("default to the demo network's domains and read a comma-separated list, lower-cased", () => {
    expect(parse({}).data?.ORGANISATION_EMAIL_DOMAINS).toEqual(['portal.test', 'research.test']);
    expect(parse({ ORGANISATION_EMAIL_DOMAINS: ' Example.org, lab.clinic.test ' }).data).toEqual({
      ORGANISATION_EMAIL_DOMAINS: ['example.org', 'lab.clinic.test'],
    });
  });

  it('refuses an empty list and entries that are not domain names', () => {
    for (const bad of ['', ' , ', 'example', 'a@example.org', 'exa mple.org', '-x.org']) {
      expect(parse({ ORGANISATION_EMAIL_DOMAINS: bad }).success, bad).toBe(false);
    }
  });
});
