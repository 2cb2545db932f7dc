import { z } from 'zod';
import { msToNumber } from '@temporalio/common/lib/time';
import {
  AccessDateSettingsSchema,
  AccessReviewSettingsSchema,
  CalendarDaySchema,
  PortalRulesConfigSchema,
} from '@portal/contract';
import { type DirectoryConfig, DirectoryConfigSchema } from '@portal/directory';

/** A Temporal duration ('3 days', '90s', '15 minutes'), checked by parsing it. */
const duration = z.string().refine((v) => {
  try {
    return msToNumber(v as Parameters<typeof msToNumber>[0]) > 0;
  } catch {
    return false;
  }
}, 'must be a duration such as "3 days" or "90s"');

/** Worker settings from the environment, validated at start-up. */
export const WorkerConfigSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  TEMPORAL_ADDRESS: z.string().min(3).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('portal-requests'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().min(3).default('portal-gateway@portal.test'),
  PORTAL_URL: z.string().default('http://127.0.0.1:8080'),
  /**
   * Single sign-on's back-channel logout (issue 22): the API's OIDC_KEY_ENCRYPTION_KEY (the worker signs logout
   * tokens with the provider's key; unset, no token is sent) and the issuer (default PORTAL_URL + '/oidc').
   */
  OIDC_KEY_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  OIDC_ISSUER: z.url().optional(),
  /** 'production' refuses loopback back-channel logout targets. */
  NODE_ENV: z.string().default('development'),
  /**
   * Issue 21 case 6: the key the set-password links of outbox mails derive from, so a re-sent mail carries
   * the link the first send delivered. Every worker process needs the same one: no per-process default.
   */
  MAIL_LINK_KEY: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 48)'),
  /** Rule 1: rows whose start is unconfirmed for this long are started by the reconciler. */
  RECONCILE_GRACE: duration.default('1 minute'),
  RECONCILE_EVERY: duration.default('1 minute'),
  /** Rule 5: how long a resolution mail is retried before MAIL_FAILED (passed to workflows the reconciler starts). */
  MAIL_DEADLINE: duration.default('24 hours'),
  /** How long each database write of a request is retried (passed to workflows the reconciler starts, as the API does). */
  WRITE_DEADLINE: duration.optional(),
  /** The start-to-close timeout of each attempt of those writes (passed likewise; unset: 30 seconds). */
  WRITE_ATTEMPT_TIMEOUT: duration.optional(),
  /**
   * Provisioning (issue 41): opens the SCIM bearer tokens the API sealed (the API's PROVISIONING_KEY; unset or empty,
   * nothing is provisioned and every notice waits), one attempt's limit at a target, and the longest wait
   * between retries (the connection's retryDays bound them all). Tests shorten the two durations.
   */
  PROVISIONING_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  PROVISIONING_ATTEMPT_TIMEOUT: duration.default('1 minute'),
  PROVISIONING_MAX_RETRY_INTERVAL: duration
    .refine((v) => msToNumber(v as '1s') >= 1000, 'must be at least 1 second (the first retry waits one)')
    .default('10 minutes'),
  /** The reviewers' digest: requests waiting longer than this are listed, every REVIEWER_DIGEST_EVERY. */
  REQUEST_REMINDER_AFTER: duration.default('3 days'),
  REVIEWER_DIGEST_EVERY: duration.default('1 day'),
  /** Where the digest goes; empty turns the digest schedule off. */
  REVIEWER_DIGEST_TO: z.union([z.email(), z.literal('')]).default('user-support@portal.test'),
  /**
   * Issue 24: where the worker serves /metrics (its activity outcomes and the Temporal SDK's runtime metrics,
   * observability/); unset, no metrics listener and no SDK exporter. WORKER_METRICS_HOST defaults to loopback.
   * Names of their own, so an API and a worker sharing one host and one environment do not claim one port.
   */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Time-bound access (issue 25): the expiry schedule runs every ACCESS_EXPIRY_EVERY; ACCESS_MAX_DAYS,
   * ACCESS_EXPIRY_NOTICE_DAYS and NETWORK_TIME_ZONE as the API reads them.
   */
  ACCESS_EXPIRY_EVERY: duration.default('15 minutes'),
  ...AccessDateSettingsSchema.shape,
  /**
   * Approval policies (docs/decisions.md "Approval policies"): days 'YYYY-MM-DD' that are not working days for the
   * stages' deadlines (Monday to Friday in NETWORK_TIME_ZONE minus these), comma-separated; empty: none.
   */
  NETWORK_HOLIDAYS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean),
    )
    .pipe(z.array(CalendarDaySchema)),
  /** Access review campaigns (issue 25): the study role whose holders review their LAOs' items. */
  ...AccessReviewSettingsSchema.shape,
  /**
   * The audit trail's seals (docs/decisions.md "A tamper-evident audit trail"): the Ed25519 key (raw 32 bytes,
   * base64url; `npm run up` and the test stacks generate one); unset or empty, nothing is sealed and the worker
   * says so.
   * The schedule runs every AUDIT_SEAL_EVERY; an id not visible for AUDIT_LATE_AFTER (twice the longest write
   * transaction's timeout) is no longer waited for; AUDIT_SEAL_MAX_ROWS rows per seal at most.
   */
  AUDIT_SEAL_PRIVATE_KEY: z
    .union([z.literal(''), z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes, base64url')])
    .optional(),
  /**
   * Every public key ever used (raw 32 bytes, base64url, comma-separated), for Audit Integrity's 'Verify now';
   * unset, the key derived from AUDIT_SEAL_PRIVATE_KEY; neither set, verifying fails.
   */
  AUDIT_SEAL_PUBLIC_KEYS: z
    .string()
    .regex(
      /^\s*([A-Za-z0-9_-]{43}\s*(,\s*[A-Za-z0-9_-]{43}\s*)*)?$/,
      'must be base64url keys of 32 bytes, comma-separated',
    )
    .optional(),
  AUDIT_SEAL_EVERY: duration.default('1 minute'),
  AUDIT_LATE_AFTER: duration.default('10 minutes'),
  AUDIT_SEAL_MAX_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  /** The marker a proxy batch's comments are written with, as the API writes a single proxy request's (000 §3). */
  PROXY_COMMENT_MARKER: PortalRulesConfigSchema.shape.PROXY_COMMENT_MARKER,
});
export type WorkerConfig = z.infer<typeof WorkerConfigSchema>;

/**
 * Parses `env` with `schema`.
 * @throws Error naming every bad or missing variable, e.g. "DATABASE_URL: must be a postgres:// URL".
 */
export function parseEnv<T extends z.ZodTypeAny>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}

/**
 * The directory of the kinds' outside effects (a registration's entry), from the LDAP_* variables; undefined
 * when LDAP_URL is unset (saves that need it then fail).
 * @throws Error naming the bad variables when LDAP_URL is set but the rest is wrong.
 */
export function directoryConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig | undefined {
  return env.LDAP_URL ? parseEnv(DirectoryConfigSchema, env) : undefined;
}
