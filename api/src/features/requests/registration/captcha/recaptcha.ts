/**
 * Google reCAPTCHA behind the captcha interface, used when RECAPTCHA_SECRET is configured (001 §7 'A
 * captcha script is loaded from a captcha service'): the answer (`g-recaptcha-response`) is checked with
 * the siteverify API. Any failure to reach it, or an answer it does not confirm, is a failed captcha.
 */
import { z } from 'zod';
import type { CaptchaVerifier } from './verifier';

export const RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** The siteverify answer (the fields this verifier reads). */
const SiteVerifyAnswer = z.looseObject({
  success: z.boolean(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

export interface RecaptchaSettings {
  secret: string;
  /** When set, the answer must have been solved on this host. */
  expectedHostname?: string;
  /** Injected in tests (recorded answers); the global fetch otherwise. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createRecaptchaVerifier(settings: RecaptchaSettings): CaptchaVerifier {
  const doFetch = settings.fetch ?? fetch;
  return {
    kind: 'recaptcha',
    async verify(answer, remoteIp) {
      const form = new URLSearchParams({ secret: settings.secret, response: answer });
      if (remoteIp) form.set('remoteip', remoteIp);
      try {
        const res = await doFetch(RECAPTCHA_VERIFY_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
        });
        if (!res.ok) return false;
        const parsed = SiteVerifyAnswer.safeParse(await res.json());
        if (!parsed.success || !parsed.data.success) return false;
        return !settings.expectedHostname || parsed.data.hostname === settings.expectedHostname;
      } catch {
        return false;
      }
    },
  };
}
