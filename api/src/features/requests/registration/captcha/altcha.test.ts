import { describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createAltchaCaptcha as createWith, type AltchaSettings } from './altcha';
import type { UsedSolutions } from './used-solutions';

const settings = { hmacKey: 'test-hmac-key-0123456789', ttlSeconds: 60, minCounter: 10, maxCounter: 500 };

/**
 * The captcha with its used solutions in a Set: this file tests the verification; the PostgreSQL record of
 * used solutions is tested across API processes (tests/integration/many-processes).
 */
function createAltchaCaptcha(s: AltchaSettings) {
  const seen = new Set<string>();
  const used: UsedSolutions = {
    claim: async (signature) => !seen.has(signature) && Boolean(seen.add(signature)),
  };
  return createWith(s, used);
}

async function solved(captcha: ReturnType<typeof createAltchaCaptcha>) {
  const challenge = await captcha.challenge();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('ALTCHA captcha', () => {
  it('accepts a solved challenge once (replay refused)', async () => {
    const captcha = createAltchaCaptcha(settings);
    const answer = await solved(captcha);
    expect(await captcha.verify(answer)).toBe(true);
    expect(await captcha.verify(answer)).toBe(false);
  });

  it('refuses a solution signed with another key, garbage, and a tampered counter', async () => {
    const other = createAltchaCaptcha({ ...settings, hmacKey: 'another-key-9876543210' });
    expect(await createAltchaCaptcha(settings).verify(await solved(other))).toBe(false);
    expect(await createAltchaCaptcha(settings).verify('not-a-payload')).toBe(false);
    const captcha = createAltchaCaptcha(settings);
    const decoded = JSON.parse(Buffer.from(await solved(captcha), 'base64').toString());
    decoded.solution.counter += 1;
    expect(await captcha.verify(Buffer.from(JSON.stringify(decoded)).toString('base64'))).toBe(false);
  });

  it('refuses an expired challenge', async () => {
    const captcha = createAltchaCaptcha({ ...settings, ttlSeconds: -1 });
    expect(await captcha.verify(await solved(captcha))).toBe(false);
  });
});
