import { describe, expect, it } from 'vitest';
import { zodToFieldErrors } from './errors';
import { ssoClientBodySchema, ssoUriProblem } from './sso-client';
import { ACR } from './sso';

const dev = { allowLoopbackHttp: true };
const prod = { allowLoopbackHttp: false };
const errorsOf = (input: unknown, rules = dev) => {
  const r = ssoClientBodySchema(rules).safeParse(input);
  return r.success ? {} : zodToFieldErrors(r.error);
};

describe('single sign-on client URIs (issue 22)', () => {
  it('accepts https, and http to loopback only when allowed', () => {
    expect(ssoUriProblem('https://edc.example.org/callback?x=1', prod)).toBeNull();
    for (const host of ['127.0.0.1:3000', 'localhost', '[::1]:8080']) {
      expect(ssoUriProblem(`http://${host}/cb`, dev)).toBeNull();
      expect(ssoUriProblem(`http://${host}/cb`, prod)).toBe('protocolRequired');
    }
    expect(ssoUriProblem('http://edc.example.org/cb', dev)).toBe('protocolRequired');
    expect(ssoUriProblem('ftp://edc.example.org/cb', dev)).toBe('protocolRequired');
    expect(ssoUriProblem('com.example.app:/cb', dev)).toBe('protocolRequired');
  });

  it('refuses fragments, user information, wildcards, relative and oversized URIs', () => {
    for (const bad of [
      'https://edc.example.org/cb#x',
      'https://edc.example.org/cb#',
      'https://user:pass@edc.example.org/cb',
      'https://user@edc.example.org/cb',
      'https://*.example.org/cb',
      'https://edc.example.org/*',
      '/cb',
      'https://edc.example.org/a b',
    ]) {
      expect(ssoUriProblem(bad, dev), bad).toBe('invalid');
    }
    expect(ssoUriProblem('https://edc.example.org/cb?email=a@b.org', dev)).toBeNull();
    expect(ssoUriProblem(`https://edc.example.org/${'a'.repeat(2048)}`, dev)).toBe('size');
  });
});

describe('single sign-on client body', () => {
  it('keys each problem by its field and index with the spec reasons', () => {
    expect(errorsOf({})).toEqual({ clientId: ['required'], redirectUris: ['required'] });
    expect(
      errorsOf({
        clientId: 'bad id!',
        redirectUris: ['http://edc.example.org/cb', 'https://ok.example.org/cb'],
        postLogoutRedirectUris: ['https://ok.example.org/#out'],
        backchannelLogoutUri: 'http://127.0.0.1/logout',
        initiateLoginUri: 'x'.repeat(2049),
      }),
    ).toEqual({
      clientId: ['invalid'],
      'redirectUris[0]': ['protocolRequired'],
      'postLogoutRedirectUris[0]': ['invalid'],
      initiateLoginUri: ['size'],
    });
    expect(errorsOf({ clientId: 'c'.repeat(129), redirectUris: Array(11).fill('https://a.org/') })).toEqual({
      clientId: ['size'],
      redirectUris: ['size'],
    });
    expect(errorsOf({ clientId: 'edc', redirectUris: ['http://127.0.0.1/cb'] }, prod)).toEqual({
      'redirectUris[0]': ['protocolRequired'],
    });
  });

  it('trims, drops duplicate URIs and reads blank optional URIs as none', () => {
    const body = ssoClientBodySchema(dev).parse({
      clientId: ' edc-demo ',
      redirectUris: ['https://edc.example.org/cb', ' https://edc.example.org/cb '],
      backchannelLogoutUri: '  ',
    });
    expect(body).toEqual({
      clientId: 'edc-demo',
      isPublic: false,
      redirectUris: ['https://edc.example.org/cb'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      initiateLoginUri: null,
      defaultAcr: null,
    });
  });

  it('takes a published sign-in level as the default acr, nothing else (issue 37)', () => {
    const base = { clientId: 'edc', redirectUris: ['https://edc.example.org/cb'] };
    expect(ssoClientBodySchema(dev).parse({ ...base, defaultAcr: ACR.multiFactor }).defaultAcr).toBe(ACR.multiFactor);
    expect(ssoClientBodySchema(dev).parse({ ...base, defaultAcr: null }).defaultAcr).toBeNull();
    expect(Object.keys(errorsOf({ ...base, defaultAcr: 'urn:other:acr' }))).toEqual(['defaultAcr']);
  });
});
