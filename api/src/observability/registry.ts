/**
 * The API's Prometheus metrics (issue 24), one registry per app (tests build several apps in one process; a
 * global registry would refuse the second). deploy/README.md lists the names; deploy/grafana-dashboard.json
 * charts them (the metrics test checks it charts nothing else).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ApiMetrics {
  registry: Registry;
  /** Every answered call, by method, route template (`/rest/secure/requests/:id`, never the raw URL) and status. */
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Sign-in calls (POST /rest/token/create) answered with anything but 200, by status. */
  signInFailures: Counter<'status'>;
  /** Calls refused by a rate limit (429), by route template. */
  rateLimitRefusals: Counter<'route'>;
  /** Calls refused while overloaded (503 from the load shedder). */
  overloadRefusals: Counter;
  /** Read from PostgreSQL at scrape time (db-gauges.ts). */
  openRequests: Gauge<'kind' | 'status'>;
  outboxBacklog: Gauge;
  outboxOldestAge: Gauge;
  reconcilerBacklog: Gauge<'kind'>;
  reconcilerLag: Gauge<'kind'>;
  /** Person entries by the form of their stored password (directory-gauges.ts; counted in the background). */
  passwordHashes: Gauge<'form'>;
  /** Scrapes whose PostgreSQL read failed or outlasted its deadline (the gauges then keep their last values). */
  scrapeErrors: Counter<'source'>;
}

/** Creates the registry with Node's default process metrics and the portal's own. */
export function createApiMetrics(): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer an HTTP call, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    signInFailures: new Counter({
      name: 'portal_sign_in_failures_total',
      help: 'Sign-in calls not answered 200, by status (4xx refused or limited, 5xx failed).',
      labelNames: ['status'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Calls refused 429 by a rate limit, by route template.',
      labelNames: ['route'],
      registers,
    }),
    overloadRefusals: new Counter({
      name: 'portal_overload_refusals_total',
      help: 'Calls answered 503 with Retry-After because the process was overloaded.',
      registers,
    }),
    openRequests: new Gauge({
      name: 'portal_open_requests',
      help: 'Unresolved requests by kind (access_change, profile_change, registration, proxy_batch) and status.',
      labelNames: ['kind', 'status'],
      registers,
    }),
    outboxBacklog: new Gauge({
      name: 'portal_outbox_backlog',
      help: 'Outbound mails claimed but not yet sent.',
      registers,
    }),
    outboxOldestAge: new Gauge({
      name: 'portal_outbox_oldest_age_seconds',
      help: 'Age of the oldest outbound mail not yet sent (0 when none).',
      registers,
    }),
    reconcilerBacklog: new Gauge({
      name: 'portal_reconciler_backlog',
      help: 'Rows whose workflow start is not yet confirmed (REQUEST-LIFECYCLE rule 1), by kind.',
      labelNames: ['kind'],
      registers,
    }),
    reconcilerLag: new Gauge({
      name: 'portal_reconciler_lag_seconds',
      help: 'Age of the oldest row whose workflow start is not yet confirmed, by kind (0 when none).',
      labelNames: ['kind'],
      registers,
    }),
    passwordHashes: new Gauge({
      name: 'portal_directory_password_hashes',
      help: 'Person entries by the form of their stored password (argon2id: current; any other form is re-hashed at the next sign-in).',
      labelNames: ['form'],
      registers,
    }),
    scrapeErrors: new Counter({
      name: 'portal_metrics_scrape_errors_total',
      help: 'Scrapes whose read of a source (postgres, directory) failed or outlasted its deadline.',
      labelNames: ['source'],
      registers,
    }),
  };
}
