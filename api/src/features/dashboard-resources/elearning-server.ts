/**
 * The e-learning origin (issue 23): a listener of its own (ELEARNING_PORT, the address ELEARNING_ORIGIN names)
 * that serves nothing but e-learning packages (elearning-serve.ts), so a package's scripts run in an origin
 * that holds neither the portal's storage nor a way to make its authenticated calls, while a package that
 * resumes through its own storage keeps working. Started by the API process beside the portal's listener.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';
import { OneLineRequestLog } from '../../http/request-log';
import { listenForResourceChanges } from './cache';
import { registerElearningRoute } from './elearning-serve';
import { itemLinks } from './links';

/** Builds the e-learning origin's server (not listening yet). */
export async function buildElearningServer(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.cfg.LOG_LEVEL === 'silent' ? false : { level: deps.cfg.LOG_LEVEL },
    logController: new OneLineRequestLog(),
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onRequest', async (_req, reply) => {
    // The portal never frames packages from here, and nothing here is the portal's.
    reply.header('x-frame-options', 'SAMEORIGIN').header('cross-origin-resource-policy', 'same-origin');
  });
  const caches = await listenForResourceChanges(app, deps.cfg.DATABASE_URL);
  registerElearningRoute(app, { prisma: deps.prisma, links: itemLinks(deps.cfg), caches, sandbox: false });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ message: 'Not found' }));
  return app;
}
