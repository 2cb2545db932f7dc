/**
 * The self-hosted captcha: ALTCHA proof of work (altcha-lib, protocol v2). The API hands out challenges
 * signed with an HMAC key (GET /rest/public/captcha/challenge) that expire after `ttlSeconds`; the browser's
 * widget finds the counter whose SHA-256 key starts with the challenge's prefix; the server verifies the
 * signature and the solution, and remembers each verified challenge until it expires, so one solution is
 * accepted once (replay protection; per process, like the challenges' short life).
 */
import { type Challenge, CappedMap, type Solution, createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { CaptchaVerifier } from './verifier';

export interface AltchaSettings {
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

export function createAltchaCaptcha(settings: AltchaSettings): AltchaCaptcha {
  // Verified challenges (by signature) until they expire; capped so a flood cannot grow it without bound.
  const used = new CappedMap<string, number>({ maxSize: 100_000 });
  let sweptAt = 0;
  // Expired challenges fail verification anyway: sweep them at most once a minute.
  const forget = (now: number) => {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const [signature, expiresAt] of used.entries() as IterableIterator<[string, number]>) {
      if (expiresAt <= now) used.delete(signature);
    }
  };
  return {
    kind: 'altcha',
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
      if (!decoded || !signature || !decoded.challenge.parameters.expiresAt) return false;
      const now = Date.now();
      forget(now);
      if (used.has(signature)) return false;
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
      // Atomic: of two concurrent submissions of one solution, one is accepted.
      return used.setIfAbsent(signature, decoded.challenge.parameters.expiresAt * 1000);
    },
  };
}
