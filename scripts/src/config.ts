/**
 * Start-up configuration of the local stack, read from environment variables and validated with zod.
 * Setting DATABASE_URL, TEMPORAL_ADDRESS, LDAP_URL or SMTP_URL uses that service instead of starting one.
 */
import { z } from 'zod';

const blankToUndefined = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const port = z.coerce
  .number({ error: 'must be a port number 1-65535' })
  .int('must be a whole number')
  .min(1, 'must be 1-65535')
  .max(65535, 'must be 1-65535');

export const StackEnvSchema = z
  .object({
    DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\/.+/, 'must be a postgresql:// URL')),
    TEMPORAL_ADDRESS: optional(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'must be host:port')),
    TEMPORAL_UI_URL: optional(z.url('must be an http(s) URL')),
    TEMPORAL_NAMESPACE: z.preprocess(blankToUndefined, z.string().default('default')),
    TEMPORAL_TASK_QUEUE: z.preprocess(blankToUndefined, z.string().default('portal-requests')),
    LDAP_URL: optional(z.string().regex(/^ldaps?:\/\/.+/, 'must be an ldap:// or ldaps:// URL')),
    LDAP_ADMIN_PASSWORD: optional(z.string()),
    LDAP_BASE_DN: z.preprocess(blankToUndefined, z.string().default('dc=portal,dc=test')),
    LDAP_ADMIN_DN: z.preprocess(blankToUndefined, z.string().default('cn=admin,dc=portal,dc=test')),
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')),
    MAIL_UI_URL: optional(z.url('must be an http(s) URL')),
    MAIL_FROM: z.preprocess(
      blankToUndefined,
      z.email('must be an email address').default('portal-gateway@portal.test'),
    ),
    SESSION_TIMEOUT_SECONDS: z.preprocess(
      blankToUndefined,
      z.coerce.number().int('must be a whole number').positive('must be positive').default(3600),
    ),
    SESSION_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    MAIL_LINK_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    OIDC_KEY_ENCRYPTION_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    SECOND_FACTOR_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    CAPTCHA_HMAC_KEY: optional(z.string().min(16, 'must be at least 16 characters')),
    ELEARNING_URL_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    /** Issue 41: seals the SCIM bearer tokens (the API seals, the worker opens); unset: the data folder's own. */
    PROVISIONING_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    NODE_ENV: z.preprocess(blankToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: optional(port),
    TEMPORAL_PORT: optional(port),
    TEMPORAL_UI_PORT: optional(port),
    TEMPORAL_HTTP_PORT: optional(port),
    TEMPORAL_METRICS_PORT: optional(port),
    POSTGRES_PORT: optional(port),
    /** PostgreSQL's shared_buffers for the stack's own server (its default, 128MB, when unset), e.g. '2GB'. */
    POSTGRES_SHARED_BUFFERS: optional(z.string().regex(/^\d+(kB|MB|GB)$/, "must be a size such as '2GB' or '512MB'")),
    /**
     * PostgreSQL's max_connections for the stack's own server (300 when unset): each API holds up to about 25
     * (Prisma's pool, two SQL pools, the rate-limit pool, three listeners) and each worker about 11, and the
     * integration files run several of each at once; PostgreSQL's own default of 100 was reached there.
     */
    POSTGRES_MAX_CONNECTIONS: optional(z.coerce.number().int().min(20).max(10_000)),
    LDAP_PORT: optional(port),
    SMTP_PORT: optional(port),
    MAIL_UI_PORT: optional(port),
    DEMO_SYSTEM_PORT: optional(port),
    ELEARNING_PORT: optional(port),
    DEMO_SCIM_PORT: optional(port),
    METRICS_PORT: optional(port),
  })
  .superRefine((env, ctx) => {
    if (env.LDAP_URL && !env.LDAP_ADMIN_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['LDAP_ADMIN_PASSWORD'], message: 'is required when LDAP_URL is set' });
    }
  });

export type StackEnv = z.infer<typeof StackEnvSchema>;

const SECRET_NAMES = new Set([
  'LDAP_ADMIN_PASSWORD',
  'SESSION_SECRET',
  'MAIL_LINK_KEY',
  'OIDC_KEY_ENCRYPTION_KEY',
  'SECOND_FACTOR_KEY',
  'CAPTCHA_HMAC_KEY',
  'ELEARNING_URL_KEY',
  'PROVISIONING_KEY',
  'DATABASE_URL',
]);

/** Thrown when environment variables are invalid; the message names each bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the stack's environment variables.
 * @throws ConfigError listing every bad variable with the reason (secret values are not echoed).
 */
export function loadStackEnv(env: NodeJS.ProcessEnv = process.env): StackEnv {
  const parsed = StackEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '?');
    const value = env[name];
    const shown = value === undefined || SECRET_NAMES.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
    return `  ${name}: ${issue.message}${shown}`;
  });
  throw new ConfigError(`Invalid environment variables:\n${lines.join('\n')}`);
}
