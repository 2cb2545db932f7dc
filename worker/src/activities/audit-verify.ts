/**
 * The audit trail's verification activity (docs/decisions.md "A tamper-evident audit trail", Audit Integrity):
 * `verifyAuditTrail` (@portal/db) over the whole trail on a connection of a pool of its own (one connection, so
 * a long verification never takes one from the other activities), then the AUDIT_VERIFIED row with the ADMIN
 * who asked as actor. The answer is a summary: the first AUDIT_VERIFY_MAX_FINDINGS findings, all counted.
 */
import type crypto from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import pg from 'pg';
import {
  poolConfigFromUrl,
  recordAuditVerification,
  sealPublicKeys,
  sealSigningKey,
  verifyAuditTrail,
} from '@portal/db';
import { AUDIT_VERIFY_MAX_FINDINGS, type AuditVerifyActivities } from '@portal/workflows';

export interface AuditVerifySettings {
  databaseUrl: string;
  /** The verifying keys by key id (every key ever used). */
  publicKeys: Map<string, crypto.KeyObject>;
  /** AUDIT_LATE_AFTER (ms): how much older than its seal's predecessor a row may be before it counts as late. */
  lateAfterMs: number;
  /** Each statement's bound (ms); default two minutes (a statement reads one batch of rows). */
  queryTimeoutMs?: number;
}

/**
 * The settings from the worker's configuration: the keys of AUDIT_SEAL_PUBLIC_KEYS, or, when only
 * AUDIT_SEAL_PRIVATE_KEY is set, the public key derived from it. @returns undefined when neither is set
 * (verification off: the activity then fails at once). @throws Error when a key is not 32 bytes, base64url.
 */
export function auditVerifySettings(cfg: {
  databaseUrl: string;
  publicKeys?: string;
  privateKey?: string;
  lateAfterMs: number;
}): AuditVerifySettings | undefined {
  const list = cfg.publicKeys?.trim() ? cfg.publicKeys : cfg.privateKey ? sealSigningKey(cfg.privateKey).publicRaw : '';
  if (!list) return undefined;
  return { databaseUrl: cfg.databaseUrl, publicKeys: sealPublicKeys(list), lateAfterMs: cfg.lateAfterMs };
}

/** The activity; without settings every attempt fails at once and is not retried. */
export function createAuditVerifyActivities(settings?: AuditVerifySettings): AuditVerifyActivities {
  let pool: pg.Pool | undefined;
  return {
    async verifyAuditTrailStep({ witness, actor }) {
      if (!settings)
        throw ApplicationFailure.nonRetryable(
          'audit verification is off on this worker (neither AUDIT_SEAL_PUBLIC_KEYS nor AUDIT_SEAL_PRIVATE_KEY is set)',
          'AuditVerifyOff',
        );
      const queryTimeout = settings.queryTimeoutMs ?? 120_000;
      pool ??= new pg.Pool({
        ...poolConfigFromUrl(settings.databaseUrl),
        max: 1,
        query_timeout: queryTimeout,
        connectionTimeoutMillis: queryTimeout,
      });
      // The pool's idle connection may be ended by PostgreSQL (a restart): that must not end the worker.
      pool.on('error', () => undefined);
      const client = await pool.connect();
      try {
        const v = await verifyAuditTrail(client, {
          publicKeys: settings.publicKeys,
          lateAfterMs: settings.lateAfterMs,
          witness,
          maxFindings: AUDIT_VERIFY_MAX_FINDINGS,
        });
        await recordAuditVerification(client, v, actor);
        client.release();
        return {
          ok: v.ok,
          rows: v.rows,
          seals: v.seals,
          awaitingSeal: v.awaitingSeal,
          findingsTotal: v.findingsTotal,
          findings: v.findings.slice(0, AUDIT_VERIFY_MAX_FINDINGS),
          ms: v.ms,
        };
      } catch (err) {
        client.release(true);
        throw err;
      }
    },
  };
}
