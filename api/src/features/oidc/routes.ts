/**
 * The OpenID Connect provider as a feature (issue 22): mounted under /oidc when OIDC_KEY_ENCRYPTION_KEY is set.
 * Fastify hands the raw request to the provider (a Koa app) with `reply.hijack()`, with no body parsing on the
 * prefix and the path's `/oidc` moved to `originalUrl` (the provider builds its URLs from it); only the
 * portal's own sign-in step (interaction.ts) is Fastify's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../auth/guard';
import type { Deps } from '../../deps';
import { finishSignIn } from './interaction';
import { buildProvider } from './provider';

const PREFIX = '/oidc';

export async function oidcRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const secret = deps.cfg.OIDC_KEY_ENCRYPTION_KEY;
  if (!secret) {
    app.log.info('single sign-on: OIDC_KEY_ENCRYPTION_KEY is not set, the OpenID provider is off');
    return;
  }
  const provider = await buildProvider(deps, secret);
  // The provider turns its own failures (a row it could not store, the database away) into `server_error`
  // answers; the cause is only here, so it is logged here.
  provider.on('server_error', (ctx, err) => {
    app.log.error({ err, path: ctx.path, method: ctx.method }, 'single sign-on: the provider failed');
  });
  const callback = provider.callback();
  // The provider reads its own bodies: leave every stream unread on this prefix.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  app.get<{ Params: { uid: string } }>(`${PREFIX}/interaction/:uid`, async (req, reply) =>
    reply.redirect(`/app/sso/${encodeURIComponent(req.params.uid)}`, 303),
  );
  app.post(`${PREFIX}/interaction/:uid/login`, { onRequest: authenticate(deps) }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return finishSignIn(deps, provider, req, reply);
  });

  const hand = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = req.raw as typeof req.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = raw.url!.slice(PREFIX.length) || '/';
    await callback(raw, reply.raw);
  };
  app.all(PREFIX, hand);
  app.all(`${PREFIX}/*`, hand);
}
