/**
 * The API's observability settings (issue 24), part of its configuration (config.ts spreads them in):
 * where /metrics is served, how long each readiness check may take, and when the API sheds load.
 */
import { z } from 'zod';

export const OBSERVABILITY_SETTINGS = {
  /**
   * /metrics (Prometheus text) is never on the public listener by default: METRICS_PORT serves it on a listener
   * of its own (at METRICS_HOST, default HOST), METRICS_TOKEN on the public listener to `Authorization: Bearer
   * <token>` only. Neither set: no /metrics.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How long (ms) /readyz waits for each dependency, so a frozen one fails its check instead of hanging the probe. */
  READY_CHECK_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
  /**
   * Load shedding (@fastify/under-pressure): above this mean event-loop delay (ms) every call but /livez and
   * /metrics answers 503 with `Retry-After: OVERLOAD_RETRY_AFTER_SECONDS`; 0 turns it off.
   */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3_600).default(10),
  /**
   * How old (ms) the count of stored password forms (`portal_directory_password_hashes`) may be before a scrape
   * starts a new one in the background: a read of every person entry, so not on every scrape (default 10 min).
   */
  PASSWORD_CENSUS_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
};
