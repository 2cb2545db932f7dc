/**
 * The rate limits' counters in PostgreSQL (issue 24: every API process enforces the same limits): a store for
 * @fastify/rate-limit built on rate-limiter-flexible's PostgreSQL limiter, writing the "RateLimit" table
 * (migration 20261201000000). One atomic upsert per counted request adds a point to the key's window, or
 * starts a new window when the old one ended; the answer is the window's count and what is left of it.
 *
 * Keys are the limit's name and a SHA-256 of what the route counts (address and username): a username is
 * sometimes a mistyped password, so it is never stored, and every key fits the column. A failing database
 * answers 503 rather than letting the request through uncounted.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { MESSAGES } from '@portal/contract';
import { poolConfigFromUrl } from '@portal/db';
import { unavailable } from '../http/errors';

export const RATE_LIMIT_TABLE = 'RateLimit';

export interface RateLimitPool {
  /** The store class to give @fastify/rate-limit's `store` option. */
  Store: FastifyRateLimitStoreCtor;
  /** Closes the pool (the app's onClose). */
  close(): Promise<void>;
}

/** The digest a counted key is stored under. */
export const rateLimitKey = (key: string): string => crypto.createHash('sha256').update(key).digest('base64url');

/**
 * A store class over one small pg pool for `databaseUrl` (connections are opened on first use). The pool is
 * the store's own: rate-limiter-flexible speaks pg's query API, which Prisma's driver adapter does not expose.
 */
export function postgresRateLimitStore(databaseUrl: string): RateLimitPool {
  const pool = new pg.Pool({ ...poolConfigFromUrl(databaseUrl), max: 4, idleTimeoutMillis: 30_000 });
  // An idle client's error (the server restarted) must not end the process: the next query reconnects.
  pool.on('error', () => {});
  // One limiter per window length: the window is fixed per route, the points are counted, never refused here
  // (@fastify/rate-limit compares the count with the route's max).
  const limiters = new Map<number, RateLimiterPostgres>();
  const limiterFor = (timeWindowMs: number): RateLimiterPostgres => {
    let limiter = limiters.get(timeWindowMs);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        // The migration made the table; the library would otherwise try CREATE TABLE at start.
        tableCreated: true,
        keyPrefix: 'rl',
        // Swept below, on a timer this module can stop when the app closes.
        clearExpiredByTimeout: false,
        points: Number.MAX_SAFE_INTEGER,
        duration: timeWindowMs / 1000,
      });
      limiters.set(timeWindowMs, limiter);
    }
    return limiter;
  };

  class PostgresStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      limiterFor(timeWindow)
        .penalty(rateLimitKey(key), 1)
        .then(
          (res) => callback(null, { current: res.consumedPoints, ttl: Math.max(res.msBeforeNext, 0) }),
          () => callback(unavailable(MESSAGES.signIn.unspecifiedFailure)),
        );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }

  // Every process sweeps windows that ended over an hour ago; the sweeps are idempotent, so several may run.
  const sweeper = setInterval(() => {
    pool.query(`DELETE FROM "${RATE_LIMIT_TABLE}" WHERE expire < $1`, [Date.now() - 3_600_000]).catch(() => {});
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  return {
    Store: PostgresStore,
    close: async () => {
      clearInterval(sweeper);
      await pool.end();
    },
  };
}

const SWEEP_EVERY_MS = 5 * 60_000;
