/**
 * The portal's configured rules the web app needs at run time, one feature plugin:
 * - GET PORTAL_SETTINGS_PATH (any signed-in USER): every proxy comment marker ever configured, the current one
 *   first (000 §3 'configured prepend segment'), so the screens that show requester comments recognise a
 *   comment filed under an earlier marker too; stored comments are never rewritten.
 * The values come from the API's environment, validated at start-up, so the browser never carries a copy that
 * could disagree with what the API writes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PORTAL_SETTINGS_PATH, PortalSettingsSchema, proxyCommentMarkersOf } from '@portal/contract';
import type { Deps } from '../../deps';
import { SECURE_ERRORS } from '../../http/route-schemas';

export const portalSettingsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const settings = PortalSettingsSchema.parse({
    proxyCommentMarkers: proxyCommentMarkersOf(deps.cfg),
    signatures: { enabled: deps.cfg.SIGNATURES === 'on', meanings: deps.cfg.SIGNATURE_MEANINGS },
  });
  app.get(
    PORTAL_SETTINGS_PATH,
    { config: { permission: 'USER' }, schema: { response: { 200: PortalSettingsSchema, ...SECURE_ERRORS } } },
    async () => settings,
  );
};
