/**
 * The public registration's captcha (001 §2.1, §5): the self-hosted ALTCHA proof of work, the only widget the
 * browser renders (docs/decisions.md, Captcha). The answer is read
 * from the first of the spec's key spellings that is present (CAPTCHA_KEYS); a missing or failed answer is
 * 422 with REGISTRATION_MESSAGES.captchaRequired under the key it came in (or the spec's own key).
 */
import { CAPTCHA_KEY, CAPTCHA_KEYS, REGISTRATION_MESSAGES } from '@portal/contract';
import { unprocessable } from '../../../../http/errors';

export interface CaptchaVerifier {
  /** True when `answer` proves a solved captcha that was not used before. Never throws for a bad answer. */
  verify(answer: string, remoteIp?: string): Promise<boolean>;
}

/** The captcha answer of a body and the key it came under (the first non-empty of CAPTCHA_KEYS). */
export function readCaptchaAnswer(body: Record<string, unknown>): { key: string; answer: string | null } {
  for (const key of CAPTCHA_KEYS) {
    const value = body[key];
    if (typeof value === 'string' && value.trim()) return { key, answer: value.trim() };
  }
  return { key: CAPTCHA_KEY, answer: null };
}

/** @throws HttpError 422 { [key]: [captchaRequired] } unless the body carries a verified answer. */
export async function requireCaptcha(
  verifier: CaptchaVerifier,
  body: Record<string, unknown>,
  remoteIp: string,
): Promise<void> {
  const { key, answer } = readCaptchaAnswer(body);
  if (answer && (await verifier.verify(answer, remoteIp))) return;
  throw unprocessable({ [key]: [REGISTRATION_MESSAGES.captchaRequired] });
}
