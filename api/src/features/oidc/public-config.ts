/**
 * The single sign-on settings the browser reads at run time: the provider's name is configured once, for the
 * API (SSO_PROVIDER_NAME), and the web app's refusal page asks for it here instead of baking its own into the
 * build. Public and registered whether or not the provider is on: the page may be opened either way.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SSO_PUBLIC_CONFIG_PATH, SsoPublicConfigSchema } from '@portal/contract';
import type { Deps } from '../../deps';

/** GET `SSO_PUBLIC_CONFIG_PATH`: `{ providerName }`. */
export const ssoPublicConfigRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(SSO_PUBLIC_CONFIG_PATH, { schema: { response: { 200: SsoPublicConfigSchema } } }, async () => ({
    providerName: deps.cfg.SSO_PROVIDER_NAME,
  }));
};
