/**
 * Security headers (helmet) and rate limits (@fastify/rate-limit) of the API and the web app it
 * serves (issue 3: cookies, headers, rate limits on sign-in and forgot-password). The limits count in
 * PostgreSQL (rate-limit-store.ts, issue 24), so every API process draws on the same budget.
 *
 * CSP: scripts, styles, images, fonts and calls only from the portal itself; Mantine injects <style> tags
 * and style attributes at run time, so styles also allow 'unsafe-inline' (scripts never do). HSTS and
 * upgrade-insecure-requests only when the portal is served over TLS (COOKIE_SECURE), since the local stack
 * runs on plain http://127.0.0.1.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { AUTH_MESSAGES } from '@portal/contract';
import type { ApiConfig } from '../config';
import { postgresRateLimitStore } from './rate-limit-store';

/** The origin the browser loads Tableau visualizations from, when a Tableau server is configured. */
const tableauOrigin = (cfg: ApiConfig): string | null => {
  const url = cfg.TABLEAU_EXTERNAL_URL ?? cfg.TABLEAU_SERVER_URL;
  return url ? new URL(url).origin : null;
};

/**
 * Sets helmet's headers on every answer and registers the rate-limit plugin (limits are set per route,
 * counted in PostgreSQL; the store's pool closes with the app).
 * helmet's middleware is built once here and run on each request's raw response: Fastify's helmet plugin
 * builds it again for every request (parsing the CSP directives each time), a cost every call paid for the
 * same headers.
 */
export async function registerSecurity(app: FastifyInstance, cfg: ApiConfig): Promise<void> {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // The dashboard's Tableau visualizations load in a frame from the configured server (issue 11).
        ...(tableauOrigin(cfg) ? { frameSrc: ["'self'", tableauOrigin(cfg)!] } : {}),
        ...(cfg.COOKIE_SECURE ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: cfg.COOKIE_SECURE ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined)),
  );
  const counters = postgresRateLimitStore(cfg.DATABASE_URL);
  app.addHook('onClose', () => counters.close());
  await app.register(rateLimit, {
    global: false,
    store: counters.Store,
    errorResponseBuilder: (_req, context) => ({
      statusCode: context.statusCode,
      message: AUTH_MESSAGES.tooManyRequests,
    }),
  });
}

const loginOf = (req: FastifyRequest): string => {
  const body = req.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.trim().toLowerCase() : '';
};

/** POST /rest/token/create: RATE_LIMIT_SIGN_IN_MAX per window per client address and username. */
export const signInRateLimit = (cfg: ApiConfig): RateLimitOptions => ({
  max: cfg.RATE_LIMIT_SIGN_IN_MAX,
  timeWindow: cfg.RATE_LIMIT_WINDOW_SECONDS * 1000,
  hook: 'preHandler',
  keyGenerator: (req) => `sign-in|${req.ip}|${loginOf(req)}`,
});

/**
 * A passkey sign-in's two calls (POST /rest/token/webauthn/options and /rest/token/webauthn):
 * RATE_LIMIT_SIGN_IN_MAX per window per client address and call, as the password's sign-in (no username is
 * typed, so the address alone is the key, counted before the body is read, malformed ones too; each call
 * counts apart, so one sign-in costs one of each).
 */
export const passkeySignInRateLimit = (cfg: ApiConfig, call: 'options' | 'verify'): RateLimitOptions => ({
  max: cfg.RATE_LIMIT_SIGN_IN_MAX,
  timeWindow: cfg.RATE_LIMIT_WINDOW_SECONDS * 1000,
  hook: 'onRequest',
  keyGenerator: (req) => `passkey-${call}|${req.ip}`,
});

/** POST /rest/public/forgot_password: RATE_LIMIT_FORGOT_PASSWORD_MAX per window per client address. */
export const forgotPasswordRateLimit = (cfg: ApiConfig): RateLimitOptions => ({
  max: cfg.RATE_LIMIT_FORGOT_PASSWORD_MAX,
  timeWindow: cfg.RATE_LIMIT_WINDOW_SECONDS * 1000,
  keyGenerator: (req) => `forgot|${req.ip}`,
});
