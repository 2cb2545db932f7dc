/**
 * The calls of visitors without an account (001 §2.1; §7 POST /rest/public/user_registration): the captcha
 * challenge and the public registration, refused 422 under the captcha's key with the spec's
 * text unless it carries a verified, unused captcha answer (checked before anything else of the body).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CaptchaChallengeSchema,
  ErrorBodySchema,
  PublicRegistrationBodySchema,
  RegistrationSchema,
} from '@portal/contract';
import type { Deps } from '../../../deps';
import { MessageSchema } from '../../../http/route-schemas';
import { sharedSecret } from '../../../shared/shared-secret';
import { type AltchaCaptcha, createAltchaCaptcha } from './captcha/altcha';
import { postgresUsedSolutions } from './captcha/used-solutions';
import { requireCaptcha } from './captcha/verifier';
import { fileRegistration } from './filing';

/**
 * The self-hosted ALTCHA captcha, with the HMAC key every API process shares (CAPTCHA_HMAC_KEY, or the one stored in PostgreSQL) and the used solutions
 * in PostgreSQL. The key is read on first use (a failed read is tried again by the next call), so a database
 * that is down at start-up does not keep the API from starting.
 */
function captchaFor(deps: Deps): AltchaCaptcha {
  const { cfg, prisma } = deps;
  let loading: Promise<AltchaCaptcha> | undefined;
  const load = (): Promise<AltchaCaptcha> => {
    loading ??= sharedSecret(prisma, 'captcha-hmac-key', cfg.CAPTCHA_HMAC_KEY).then(
      (hmacKey) =>
        createAltchaCaptcha(
          {
            hmacKey,
            ttlSeconds: cfg.CAPTCHA_TTL_SECONDS,
            minCounter: Math.floor(cfg.CAPTCHA_MAX_COUNTER / 10),
            maxCounter: cfg.CAPTCHA_MAX_COUNTER,
          },
          postgresUsedSolutions(prisma),
        ),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  return {
    challenge: async () => (await load()).challenge(),
    verify: async (answer, remoteIp) => (await load()).verify(answer, remoteIp),
  };
}

export const publicRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const captcha = captchaFor(deps);

  app.get(
    '/rest/public/captcha/challenge',
    { schema: { response: { 200: CaptchaChallengeSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return CaptchaChallengeSchema.parse(await captcha.challenge());
    },
  );

  app.post(
    '/rest/public/user_registration',
    {
      config: { destructive: true },
      preValidation: async (req) => {
        // The captcha first: an unsolved form learns nothing about its other fields.
        const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
        await requireCaptcha(captcha, body, req.ip);
      },
      schema: {
        body: PublicRegistrationBodySchema,
        response: { 200: RegistrationSchema, 422: ErrorBodySchema, 503: MessageSchema },
      },
    },
    // The visitor sees what was filed, not where operations staff follow it.
    async (req) => ({ ...(await fileRegistration(deps, req.body, null)), workflowUrl: null }),
  );
};
