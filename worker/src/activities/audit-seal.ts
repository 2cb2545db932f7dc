/**
 * The audit sealer's activity (docs/decisions.md "A tamper-evident audit trail"): one sealing step
 * (`sealNextRows`, @portal/db) on a connection of a small pool of its own, so a PostgreSQL frozen mid-step
 * costs the step its attempt (the query timeout ends it and the connection is dropped), never the pool of
 * the other activities.
 */
import pg from 'pg';
import { type SealSigningKey, poolConfigFromUrl, sealNextRows } from '@portal/db';
import type { AuditSealActivities } from '@portal/workflows';

export interface AuditSealSettings {
  databaseUrl: string;
  key: SealSigningKey;
  /** How long (ms) an id not yet visible is waited for before the sealer drops it (AUDIT_LATE_AFTER). */
  gapHorizonMs: number;
  /** Each statement's bound (ms) before the attempt fails: below the step's start-to-close timeout. */
  queryTimeoutMs?: number;
}

/** The activity; without settings (sealing off) a step fails, which only a misconfigured schedule reaches. */
export function createAuditSealActivities(settings?: AuditSealSettings): AuditSealActivities {
  let pool: pg.Pool | undefined;
  return {
    async sealAuditStep({ maxRows }) {
      if (!settings) throw new Error('audit sealing is off on this worker (AUDIT_SEAL_PRIVATE_KEY is unset)');
      const queryTimeout = settings.queryTimeoutMs ?? 60_000;
      pool ??= new pg.Pool({
        ...poolConfigFromUrl(settings.databaseUrl),
        max: 1,
        query_timeout: queryTimeout,
        connectionTimeoutMillis: queryTimeout,
      });
      // The pool's idle connections may be ended by PostgreSQL (a restart): that must not end the worker.
      pool.on('error', () => undefined);
      const client = await pool.connect();
      try {
        const step = await sealNextRows(client, {
          key: settings.key,
          maxRows,
          gapHorizonMs: settings.gapHorizonMs,
        });
        client.release();
        return step;
      } catch (err) {
        client.release(true);
        throw err;
      }
    },
  };
}
