/**
 * Password calls (000 §7): the rules, Forgot Password, the set-initial / reset links and the user's own
 * change. Every password is checked against the rules on the server (422 fieldErrors.password /
 * newPassword); link failures answer the spec's bad-link text as failureDescription (000 §8).
 */
import type { FastifyInstance } from 'fastify';
import {
  ChangePasswordBodySchema,
  ForgotPasswordBodySchema,
  HashParamSchema,
  PasswordSetBodySchema,
} from '@portal/contract';
import { readPolicy } from '@portal/directory';
import { requireAuth } from '../auth/guard';
import { forgotPasswordRateLimit } from '../auth/security';
import type { Deps } from '../deps';
import { parseInput } from '../http/validate';
import { changeOwn } from '../services/password-change';
import { isLinkLive, requestReset, setViaLink } from '../services/password-reset';
import { passwordRules } from '../services/password-rules';
import type { LinkPurpose } from '../services/password-links';

const MODES: Array<[string, LinkPurpose]> = [
  ['set_initial_password', 'SET_INITIAL'],
  ['reset_password', 'RESET'],
];

/** Public password calls. */
export function registerPublicPasswordRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/rest/public/password_validation/rules', async () => passwordRules(await readPolicy(deps.directory)));

  app.post(
    '/rest/public/forgot_password',
    { config: { rateLimit: forgotPasswordRateLimit(deps.cfg) } },
    async (req) => {
      const { emailAddress } = parseInput(ForgotPasswordBodySchema, req.body);
      // The same answer, at once, for any address: the link and the mail follow in the background.
      void requestReset(deps, emailAddress, req.log);
      return {};
    },
  );

  for (const [mode, purpose] of MODES) {
    app.get(`/rest/public/${mode}/:hash`, async (req) => {
      const parsed = HashParamSchema.safeParse(req.params);
      return parsed.success ? isLinkLive(deps, parsed.data.hash, purpose) : false;
    });
    app.post(`/rest/public/${mode}`, async (req) => {
      await setViaLink(deps, purpose, parseInput(PasswordSetBodySchema, req.body));
      return {};
    });
  }
}

/** POST /rest/secure/change_password/attempt (any signed-in user whose password the portal manages). */
export function registerSecurePasswordRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/change_password/attempt', async (req) => {
    const auth = requireAuth(req);
    await changeOwn(deps, auth, parseInput(ChangePasswordBodySchema, req.body));
    return {};
  });
}
