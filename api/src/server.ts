/**
 * Builds the Fastify app, in the order of fastify/demo's `app.ts`:
 * 1. external plugins: cookies, security headers and rate limits, the zod schema compilers, the OpenAPI
 *    document and its viewer (plugins/openapi.ts, before any route it describes);
 * 2. app plugins (plugins/): the route catalogue, the session guard of every /rest/secure route and the
 *    permission guard that reads each route's `config.permission`;
 * 3. the error handler and the no-store default for /rest answers;
 * 4. the features (features/<name>/routes.ts), each one encapsulated plugin with its routes' full paths;
 * 5. the probes /livez and /readyz, and /metrics when METRICS_TOKEN guards it (observability/);
 * 6. when WEB_DIST is set, the built web app with a single-page fallback for non-/rest paths.
 * The metrics (`app.metrics`) and the load shedder come before all of it, so their hooks see every call.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { registerSecurity } from './auth/security';
import type { Deps } from './deps';
import { accessReviewRoutes } from './features/access-reviews/routes';
import { auditRoutes } from './features/audit/routes';
import { auditIntegrityRoutes } from './features/audit-integrity/routes';
import { authRoutes } from './features/auth/routes';
import { secondFactorRoutes } from './features/second-factor/routes';
import { configurationRoutes } from './features/configuration/routes';
import { provisioningRoutes } from './features/provisioning/routes';
import { approvalPolicyRoutes } from './features/approval-policies/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { dashboardResourceRoutes } from './features/dashboard-resources/routes';
import { manualRoutes } from './features/manual/routes';
import { myApplicationsRoutes } from './features/my-applications/routes';
import { ssoPublicConfigRoutes } from './features/oidc/public-config';
import { oidcRoutes } from './features/oidc/routes';
import { passwordRoutes } from './features/password/routes';
import { portalSettingsRoutes } from './features/portal-settings/routes';
import { signatureRoutes } from './features/signatures/routes';
import { keepSignedBodies } from './auth/signature-guard';
import { profileChangeRoutes } from './features/requests/profile-change/routes';
import { profileRoutes } from './features/profile/routes';
import { proxyBatchRoutes } from './features/requests/proxy-batch/routes';
import { referenceRoutes } from './features/reference/routes';
import { registrationRoutes } from './features/requests/registration/routes';
import { reportRoutes } from './features/reports/routes';
import { requestRoutes } from './features/requests/routes';
import { userAccessRoutes } from './features/user-access/routes';
import { userDetailRoutes } from './features/users/detail-routes';
import { usersListRoutes } from './features/users/list-routes';
import { registerErrorHandler, registerNotFoundHandler } from './http/error-handler';
import { OneLineRequestLog } from './http/request-log';
import { healthRoutes } from './observability/health-routes';
import { httpMetrics } from './observability/http-metrics';
import { metricsRoute } from './observability/metrics-routes';
import { registerOverload } from './observability/overload';
import { type ApiMetrics, createApiMetrics } from './observability/registry';
import { openApi } from './plugins/openapi';
import { permissionGuard } from './plugins/permissions';
import { routeCatalog } from './plugins/route-catalog';
import { sessionGuard } from './plugins/session';
import { tracing } from './plugins/tracing';
import { zodSchemas } from './plugins/zod-schemas';

/** Fastify's `trustProxy` for TRUST_PROXY: a hop count trusts that many hops (as proxy-addr counts them). */
function trustProxyOption(
  setting: false | number | string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

export async function buildServer(deps: Deps, metrics: ApiMetrics = createApiMetrics()): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.cfg.LOG_LEVEL === 'silent' ? false : { level: deps.cfg.LOG_LEVEL },
    // One cheap line per request instead of Fastify's two (http/request-log.ts).
    logController: new OneLineRequestLog(),
    bodyLimit: 1024 * 1024,
    // Forwarded headers count only from the configured proxy hops (TRUST_PROXY; none by default).
    trustProxy: trustProxyOption(deps.cfg.TRUST_PROXY),
    // The spec writes some paths with a trailing slash and some without; both spellings of each answer.
    routerOptions: { ignoreTrailingSlash: true },
  });
  // First: its onRoute hook must see every route.
  await app.register(tracing);
  // Metrics and load shedding first: their hooks see every call, also those the later hooks refuse.
  await app.register(httpMetrics, { metrics });
  await registerOverload(app, deps.cfg, metrics);
  await app.register(cookie);
  await registerSecurity(app, deps.cfg);
  await app.register(zodSchemas);
  await app.register(openApi);

  await app.register(routeCatalog);
  await app.register(sessionGuard, { deps });
  await app.register(permissionGuard);

  registerErrorHandler(app);
  // Every /rest answer is live data: the browser must not cache it (000 §7 "disable caching"), except what
  // a route marks itself (reference data: stored, revalidated with its ETag on every use).
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/rest/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  keepSignedBodies(app);
  for (const feature of [
    authRoutes,
    secondFactorRoutes,
    passwordRoutes,
    profileRoutes,
    referenceRoutes,
    configurationRoutes,
    provisioningRoutes,
    approvalPolicyRoutes,
    auditRoutes,
    auditIntegrityRoutes,
    requestRoutes,
    proxyBatchRoutes,
    profileChangeRoutes,
    reportRoutes,
    registrationRoutes,
    userDetailRoutes,
    userAccessRoutes,
    accessReviewRoutes,
    usersListRoutes,
    dashboardRoutes,
    dashboardResourceRoutes,
    myApplicationsRoutes,
    oidcRoutes,
    ssoPublicConfigRoutes,
    manualRoutes,
    portalSettingsRoutes,
    signatureRoutes,
  ]) {
    await app.register(feature, { deps });
  }
  await app.register(healthRoutes, { deps });
  // /metrics on the public listener only behind its token; otherwise on METRICS_PORT (main.ts) or not at all.
  if (deps.cfg.METRICS_TOKEN) await app.register(metricsRoute, { deps, metrics, token: deps.cfg.METRICS_TOKEN });

  const dist = deps.cfg.WEB_DIST;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, { root: path.resolve(dist) });
    registerNotFoundHandler(app, (reply) => reply.sendFile('index.html'));
  } else {
    registerNotFoundHandler(app);
  }
  return app;
}
