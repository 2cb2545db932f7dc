import { describe, expect, it } from 'vitest';
import { RECAPTCHA_VERIFY_URL, createRecaptchaVerifier } from './recaptcha';

/** siteverify answers as Google documents and returns them (recorded; nothing reaches the network). */
const RECORDED = {
  success: { success: true, challenge_ts: '2026-11-23T10:15:02Z', hostname: 'portal.test' },
  otherHost: { success: true, challenge_ts: '2026-11-23T10:15:02Z', hostname: 'evil.test' },
  invalid: { success: false, 'error-codes': ['invalid-input-response'] },
  duplicate: { success: false, 'error-codes': ['timeout-or-duplicate'] },
  badSecret: { success: false, 'error-codes': ['invalid-input-secret'] },
};

function recorded(answer: unknown, status = 200) {
  const calls: Array<{ url: string; body: string }> = [];
  const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), body: String(init?.body) });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { calls, fetchStub };
}

describe('reCAPTCHA verifier (recorded siteverify answers)', () => {
  it('accepts a confirmed answer and posts secret, response and remote address', async () => {
    const { calls, fetchStub } = recorded(RECORDED.success);
    const v = createRecaptchaVerifier({ secret: 's3cret', fetch: fetchStub });
    expect(await v.verify('token-1', '10.0.0.7')).toBe(true);
    expect(calls[0]!.url).toBe(RECAPTCHA_VERIFY_URL);
    expect(new URLSearchParams(calls[0]!.body).get('secret')).toBe('s3cret');
    expect(new URLSearchParams(calls[0]!.body).get('response')).toBe('token-1');
    expect(new URLSearchParams(calls[0]!.body).get('remoteip')).toBe('10.0.0.7');
  });

  it.each([['invalid'], ['duplicate'], ['badSecret']] as const)('refuses a %s answer', async (name) => {
    const v = createRecaptchaVerifier({ secret: 's', fetch: recorded(RECORDED[name]).fetchStub });
    expect(await v.verify('token')).toBe(false);
  });

  it('refuses an answer solved on another host when the host is pinned', async () => {
    const v = createRecaptchaVerifier({
      secret: 's',
      expectedHostname: 'portal.test',
      fetch: recorded(RECORDED.otherHost).fetchStub,
    });
    expect(await v.verify('token')).toBe(false);
  });

  it('refuses when siteverify fails or answers garbage', async () => {
    expect(await createRecaptchaVerifier({ secret: 's', fetch: recorded({}, 500).fetchStub }).verify('t')).toBe(false);
    expect(await createRecaptchaVerifier({ secret: 's', fetch: recorded({ ok: 1 }).fetchStub }).verify('t')).toBe(
      false,
    );
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect(await createRecaptchaVerifier({ secret: 's', fetch: down }).verify('t')).toBe(false);
  });
});
