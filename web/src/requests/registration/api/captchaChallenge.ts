/**
 * GET /rest/public/captcha/challenge: a fresh ALTCHA proof-of-work challenge for the public registration form
 * (issue 10; 001 §5 captcha). The widget fetches it itself; this is the one place that names the address.
 */
export const CAPTCHA_CHALLENGE_URL = '/rest/public/captcha/challenge';
