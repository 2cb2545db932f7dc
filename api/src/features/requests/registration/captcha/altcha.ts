/**
 * The self-hosted captcha: ALTCHA proof of work (altcha-lib, protocol v2). The API hands out challenges
 * signed with an HMAC key (GET /rest/public/captcha/challenge) that expire after `ttlSeconds`; the browser's
 * widget finds the counter whose SHA-256 key starts with the challenge's prefix; the server verifies the
 * signature and the solution, and records each verified challenge until it expires, so one solution is
 * accepted once (replay protection: `used`, in PostgreSQL for every API process; used-solutions.ts).
 */
import { type Challenge, type Solution, createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { UsedSolutions } from './used-solutions';
import type { CaptchaVerifier } from './verifier';

export interface AltchaSettings {
  /** The same in every API process (configuration or a shared secret), or a challenge from one fails on another. */
  hmacKey: string;
  /** How long (s) a challenge may be solved and submitted. */
  ttlSeconds: number;
  /** The secret counter is drawn from [min, max]: the expected work of a solution. */
  minCounter: number;
  maxCounter: number;
}

export interface AltchaCaptcha extends CaptchaVerifier {
  challenge(): Promise<Challenge>;
}

/** Decodes the widget's answer: base64 of JSON `{ challenge, solution }` (raw JSON is accepted too). */
function decodeAnswer(answer: string): { challenge: Challenge; solution: Solution } | null {
  for (const text of [Buffer.from(answer, 'base64').toString('utf8'), answer]) {
    try {
      const parsed = JSON.parse(text) as { challenge?: Challenge; solution?: Solution };
      if (parsed?.challenge?.parameters && parsed.solution) {
        return { challenge: parsed.challenge, solution: parsed.solution };
      }
    } catch {
      // not this encoding
    }
  }
  return null;
}

/** The ALTCHA captcha with `settings`, recording verified solutions in `used`. */
export function createAltchaCaptcha(settings: AltchaSettings, used: UsedSolutions): AltchaCaptcha {
  return {
    async challenge() {
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(settings.minCounter, settings.maxCounter),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + settings.ttlSeconds,
        hmacSignatureSecret: settings.hmacKey,
      });
    },
    async verify(answer) {
      const decoded = decodeAnswer(answer);
      const signature = decoded?.challenge.signature;
      const expiresAt = decoded?.challenge.parameters.expiresAt;
      if (!decoded || typeof signature !== 'string' || signature.length > 128 || !expiresAt) return false;
      try {
        const result = await verifySolution({
          challenge: decoded.challenge,
          solution: decoded.solution,
          deriveKey,
          hmacSignatureSecret: settings.hmacKey,
        });
        if (!result.verified) return false;
      } catch {
        return false;
      }
      // Only a verified (so signed by us) challenge is recorded: an unsolved flood writes nothing.
      return used.claim(signature, new Date(expiresAt * 1000));
    },
  };
}
