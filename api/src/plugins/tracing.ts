/**
 * The HTTP request as the root of its trace (issue 24 "Traces"): a server span per request, named by the
 * route's template (`POST /rest/secure/user_access_mod_request`), continuing a caller's W3C `traceparent`.
 * The span is made current for the request's hooks (the session guard's reads run under it) and again around
 * the handler, since body parsing runs on the socket's own async context; so the handler's PostgreSQL and
 * LDAP calls and its workflow start or update (whose client interceptor carries the context on to the
 * worker) are its children. With tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) the spans are no-ops.
 * Registered before every route: `onRoute` only sees routes added after it.
 */
import { type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { appPlugin } from './app-plugin';

const spans = new WeakMap<FastifyRequest, Span>();

export const tracing = appPlugin(async (app: FastifyInstance) => {
  const tracer = trace.getTracer('portal-api');
  app.addHook('onRequest', (req, reply, done) => {
    const parent = propagation.extract(context.active(), req.headers);
    const route = req.routeOptions.url ?? 'unmatched';
    const span = tracer.startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'url.path': req.url.split('?')[0] },
      },
      parent,
    );
    spans.set(req, span);
    // 'close' comes after the answer is written or the socket dropped, also for hijacked replies (/oidc).
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function traced(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      const span = spans.get(req);
      const run = () => handler.call(this, req, reply);
      return span ? context.with(trace.setSpan(context.active(), span), run) : run();
    };
  });
});
