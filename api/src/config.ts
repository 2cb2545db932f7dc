import net from 'node:net';
import { getDomain } from 'tldts';
import { z } from 'zod';
import {
  DEFAULT_SIGNATURE_MEANINGS,
  SignatureMeaningsSchema,
  AccessDateSettingsSchema,
  AccessReviewSettingsSchema,
  commaSeparated,
  PERMISSIONS,
  PortalRulesConfigSchema,
} from '@portal/contract';
import { DirectoryConfigSchema } from '@portal/directory';
import { OBSERVABILITY_SETTINGS } from './observability/settings';

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4/IPv6 address, optionally with a /prefix, or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (issue 13): which hops may set X-Forwarded-For / -Proto / -Host, so the client address the rate
 * limits count is the real one. Unset or empty: none (the address of the connection counts; the local stack
 * has no proxy). A number: that many hops in front of the API (docker-compose.yml: 1, the web container's
 * nginx). Otherwise a comma-separated list of addresses, CIDR ranges or proxy-addr's range names
 * (`loopback`, `linklocal`, `uniquelocal`). Becomes Fastify's `trustProxy` option.
 */
export const TrustProxySchema = z
  .string()
  .trim()
  .default('')
  .refine(
    (v) => v === '' || /^\d{1,2}$/.test(v) || v.split(',').every((e) => isProxyAddress(e.trim())),
    'must be a hop count or a comma-separated list of proxy addresses',
  )
  .transform((v): false | number | string[] =>
    v === '' ? false : /^\d+$/.test(v) ? Number(v) || false : v.split(',').map((e) => e.trim()),
  );

/**
 * A comma-separated list of names (trimmed, empty entries dropped; '' is the empty list). Names may hold spaces
 * but not commas.
 */
export const nameList = (fallback: string) =>
  commaSeparated(fallback).pipe(z.array(z.string().max(128, 'each name must be at most 128 characters')));

const boolish = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** API settings from the environment, validated at start-up (000 §9 constants as defaults). */
/** A Temporal duration such as '24 hours' or '4 seconds'. */
const duration = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|seconds?|m|minutes?|h|hours?|d|days?)$/, 'must be a duration such as "24 hours"');

export const ApiConfigSchema = DirectoryConfigSchema.extend({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  TEMPORAL_ADDRESS: z.string().min(3).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('portal-requests'),
  TEMPORAL_UI_URL: z.url().optional(),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  WEB_DIST: z.string().optional(),
  SESSION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  COOKIE_SECURE: boolish,
  SUPPORT_EMAIL: z.string().default('support@portal.test'),
  /** Mail of the password lifecycle (000 §7 forgot_password, set_initial_password/resend). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
    .default('smtp://127.0.0.1:1025'),
  /**
   * How long the API's own mail (the password links, the second factors' notices) waits on the SMTP server:
   * to connect, for its greeting, and for each answer. Past it the person is told to try again (503).
   */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  MAIL_FROM: z.string().min(3).default('portal-gateway@portal.test'),
  /** The portal's public base URL, for the links in mail. */
  PORTAL_URL: z.url().default('http://127.0.0.1:8080'),
  /** Lifetime of an emailed reset link (forgot password) and of a set-initial-password link. */
  RESET_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  INITIAL_LINK_TTL_HOURS: z.coerce.number().int().min(1).max(2_160).default(168),
  /** Rate limits (@fastify/rate-limit): sign-in per client address and username, forgot-password per address. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_SIGN_IN_MAX: z.coerce.number().int().min(1).max(100_000).default(10),
  RATE_LIMIT_FORGOT_PASSWORD_MAX: z.coerce.number().int().min(1).max(100_000).default(5),
  TRUST_PROXY: TrustProxySchema,
  /**
   * Sign-in failures of unknown usernames (issue 13, docs/decisions.md): how long a name's count is kept
   * after its last failure, and how many names are kept at most (the least recently failed go first).
   */
  SIGN_IN_UNKNOWN_TTL_HOURS: z.coerce.number().int().min(1).max(8_760).default(720),
  SIGN_IN_UNKNOWN_MAX_NAMES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /**
   * The public registration's captcha (issue 10): the ALTCHA challenges' HMAC key (unset: a random key made
   * once and stored in PostgreSQL, so every API process signs with the same one; issue 24), their lifetime and
   * the largest secret counter (the expected work).
   */
  CAPTCHA_HMAC_KEY: z.string().min(16).optional(),
  CAPTCHA_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  CAPTCHA_MAX_COUNTER: z.coerce.number().int().min(10).max(10_000_000).default(50_000),
  /**
   * Refused rather than ignored: the browser can render only the self-hosted ALTCHA, so an operator who sets it
   * expecting Google reCAPTCHA learns at start-up that it has no effect (docs/decisions.md, Captcha).
   */
  RECAPTCHA_SECRET: z
    .undefined({ error: 'is not supported: the public form uses the self-hosted ALTCHA captcha; unset it' })
    .optional(),
  /**
   * How long (ms) the API's stop on SIGTERM may take (in-flight requests, listeners, connections) before it
   * names the step that hangs and exits 1: under an orchestrator's grace period (Kubernetes: 30 s).
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Electronic signatures on access decisions (docs/decisions.md "Electronic signatures"): off by default
   * (the spec's screens and bodies, unchanged); on, every signed action needs a ticket (SIGNATURE_HEADER).
   */
  SIGNATURES: z.enum(['on', 'off']).default('off'),
  /**
   * The meanings offered per signed action, as JSON (`{"REQUEST_APPROVAL": ["Approved"], ...}`); actions left
   * out keep DEFAULT_SIGNATURE_MEANINGS.
   */
  SIGNATURE_MEANINGS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return DEFAULT_SIGNATURE_MEANINGS;
      const parsed = SignatureMeaningsSchema.safeParse(
        (() => {
          try {
            return JSON.parse(v) as unknown;
          } catch {
            return undefined;
          }
        })(),
      );
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON naming actions with lists of meanings (1 to 64 characters)',
        });
        return z.NEVER;
      }
      return { ...DEFAULT_SIGNATURE_MEANINGS, ...parsed.data };
    }),
  /** How long a signature ticket may wait for its decision (seconds). */
  SIGNATURE_TICKET_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
  /** REQUEST-LIFECYCLE rule 6: how long (ms) a reviewer's save waits for acceptance and result before 202. */
  REVIEW_DEADLINE_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Rule 5: how long a request's resolution mail is retried before MAIL_FAILED (a Temporal duration). */
  MAIL_DEADLINE: duration.default('24 hours'),
  /**
   * Issue 21: the overall deadline of each database write of a request's workflow (commit, outside effects,
   * bookkeeping), passed in its start input; unset, the workflow's default (10 minutes). Tests shorten it.
   */
  WRITE_DEADLINE: duration.optional(),
  /**
   * The start-to-close timeout of each attempt of those writes, passed in the start input likewise; unset, the
   * workflow's default (30 seconds). Tests that kill a worker mid-write shorten it, so the retry comes soon.
   */
  WRITE_ATTEMPT_TIMEOUT: duration.optional(),
  /**
   * Approval policies (docs/decisions.md "Approval policies"): the length of one working day of the stages'
   * reminders and deadlines, passed in the start input of the requests this API files; unset, the calendar's
   * working days (the worker's NETWORK_TIME_ZONE and NETWORK_HOLIDAYS). Tests and demos shorten it.
   */
  APPROVAL_WORKING_DAY: duration.optional(),
  /**
   * Single sign-on (issue 22): the portal as the network's OpenID Connect provider under /oidc. Unset
   * OIDC_KEY_ENCRYPTION_KEY turns it off; set, it encrypts the signing keys stored in PostgreSQL (AES-256-GCM,
   * key derived with HKDF) and signs the provider's cookies, so every API process needs the same one.
   * OIDC_ISSUER defaults to PORTAL_URL + '/oidc'; access tokens live OIDC_ACCESS_TOKEN_TTL_SECONDS (how long an
   * issued token outlives a removal); SSO_PROVIDER_NAME is the name in the 000 §8 refusal texts.
   */
  OIDC_KEY_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Provisioning (issue 41): seals the SCIM bearer tokens of the systems' connections (AES-256-GCM, key derived
   * with HKDF, purpose `provisioning-tokens`); the worker needs the same one. Unset or empty: no token can be stored.
   */
  PROVISIONING_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  /**
   * Second factors (issue 37): seals the TOTP secrets stored in PostgreSQL (AES-256-GCM, key derived with HKDF;
   * prisma/src/sealed.ts), so every API process needs the same one. Unset: no second factor can be enrolled.
   */
  SECOND_FACTOR_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The portal's name in the person's authenticator app (the `issuer` of the enrolment's URI). */
  SECOND_FACTOR_ISSUER: z.string().min(1).max(64).default('Portal Gateway'),
  /**
   * The permissions (000 §6) whose holders must use a second factor (auth/second-factor-obligation.ts).
   * Comma-separated; '' means nobody must.
   */
  SECOND_FACTOR_REQUIRED_PERMISSIONS: commaSeparated('ADMIN,WRITE_USERS,READ_USERS').pipe(z.array(z.enum(PERMISSIONS))),
  /** How long the link that confirms a person's first second factor works. */
  SECOND_FACTOR_LINK_TTL_MINUTES: z.coerce.number().int().min(5).max(10_080).default(60),
  /**
   * Passkeys and security keys (WebAuthn; docs/decisions.md "Passkeys"): the relying party id (a host name,
   * never an IP address: browsers refuse one; default PORTAL_URL's host), the origins the browser may report
   * (comma-separated; default PORTAL_URL's origin) and how long a challenge may be answered, in seconds.
   */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]{1,253}$/i, 'must be a host name')
    .optional(),
  WEBAUTHN_ORIGINS: commaSeparated('').pipe(z.array(z.url())),
  WEBAUTHN_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  OIDC_ISSUER: z.url().optional(),
  OIDC_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  SSO_PROVIDER_NAME: z.string().min(1).default('Frontier Science'),
  /**
   * The portal's own single sign-on project id (000 §1: 115 for dev, 119 for test, 115 for prod), published in
   * the discovery document as `portal_project_id` so a study system can tell which portal environment it
   * signs in to. The test stack sets 119.
   */
  SSO_PROJECT_ID: z.coerce.number().int().positive().default(115),
  /**
   * The user manual's PDF (issue 23; features/manual), built from docs/manual by `npm run build`
   * (scripts/src/manual/build-pdf.ts); a path relative to the process's working directory (the repository).
   */
  USER_MANUAL_PDF: z.string().min(1).default('docs/manual/dist/user-manual.pdf'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The dashboard's Tableau server (000 §7 Visualizations, issue 11; api/src/features/dashboard/tableau.ts):
   * unset, the visualizations are hidden. TABLEAU_SERVER_URL is where the API asks for trusted tickets,
   * TABLEAU_EXTERNAL_URL what the browser loads (default the same), TABLEAU_SITE the default target site,
   * TABLEAU_TICKET_USER the Tableau user tickets are for (default the signed-in username), and
   * TABLEAU_VISUALIZATIONS a JSON list of {id, filePath, title, description, tableauSite, permission?}.
   */
  TABLEAU_SERVER_URL: z.url().optional(),
  TABLEAU_EXTERNAL_URL: z.url().optional(),
  TABLEAU_SITE: z.string().default(''),
  TABLEAU_TICKET_USER: z.string().min(1).optional(),
  TABLEAU_VISUALIZATIONS: z.string().default('[]'),
  /**
   * Who may file access-change requests for others (000 §6, 001 §6, §9; shared/proxy-capability.ts): users
   * holding an active study role of PROXY_STUDY_ROLES or a portal role of PROXY_PORTAL_ROLES; a portal role of
   * PROXY_ALL_USERS_PORTAL_ROLES also reaches every user (forAllUsers). Comma-separated names; the defaults are
   * the names the spec gives; '' means none.
   */
  PROXY_STUDY_ROLES: nameList('LAO Staff'),
  PROXY_PORTAL_ROLES: nameList('Administrator'),
  PROXY_ALL_USERS_PORTAL_ROLES: nameList('Proxy Access-Change Request User'),
  // --- Single sign-on clients (issue 22; Configure → Systems, features/configuration/sso-clients.ts) ---
  /**
   * Whether a client's URIs (redirect, post-logout, back-channel logout, initiate-login) may use http to
   * 127.0.0.1, localhost or [::1]: true for the local stack and the tests; the production-shaped deployment
   * (docker-compose.yml) sets false, so only https is accepted there.
   */
  SSO_ALLOW_LOOPBACK_HTTP: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  // --- Dashboard resources (issue 23; features/dashboard-resources/, README "Dashboard resources") ---
  /** Whether a link item's URL may be http (https always): true outside production; docker-compose.yml sets false. */
  RESOURCE_LINK_ALLOW_HTTP: boolish.default(true),
  /** Largest DOWNLOAD file, e-learning package (.zip as uploaded) and card picture accepted, in bytes. */
  DASHBOARD_FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 40)
    .default(200 * 1024 ** 2),
  ELEARNING_PACKAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 40)
    .default(500 * 1024 ** 2),
  DASHBOARD_IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 31)
    .default(5 * 1024 ** 2),
  /**
   * Zip-bomb limits of an e-learning package: its number of entries, the total of its unpacked sizes (bytes),
   * and the largest compression ratio (unpacked / packed) of an entry over 1 MiB or of the whole package.
   */
  ELEARNING_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  ELEARNING_MAX_UNPACKED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 42)
    .default(2 * 1024 ** 3),
  ELEARNING_MAX_RATIO: z.coerce.number().min(1).max(100_000).default(200),
  /**
   * Where e-learning packages are served from: a separate origin (a second listener on ELEARNING_PORT, at
   * ELEARNING_HOST), so a package's scripts never run with the portal's origin. Unset ELEARNING_ORIGIN: the API
   * serves them itself under `Content-Security-Policy: sandbox allow-scripts`.
   */
  ELEARNING_ORIGIN: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  ELEARNING_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  ELEARNING_HOST: z.string().optional(),
  /**
   * The key signing e-learning paths (HMAC-SHA256), required and the same in every API process (`npm run up`
   * keeps one in its secrets, compose requires it). A signed path stays valid ELEARNING_URL_TTL_HOURS.
   */
  ELEARNING_URL_KEY: z.string('is required (32+ random characters)').min(32, 'must be at least 32 characters'),
  ELEARNING_URL_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  // --- Metrics, probes and load shedding (issue 24; observability/settings.ts) ---
  ...OBSERVABILITY_SETTINGS,
  // --- Time-bound access (issue 25): ACCESS_MAX_DAYS, ACCESS_EXPIRY_NOTICE_DAYS, NETWORK_TIME_ZONE ---
  ...AccessDateSettingsSchema.shape,
  // --- Access review campaigns (issue 25): ACCESS_REVIEW_STUDY_ROLE, whose holders review their LAOs' items ---
  ...AccessReviewSettingsSchema.shape,
  ...PortalRulesConfigSchema.shape,
});
export type ApiConfig = z.infer<typeof ApiConfigSchema>;

/** Whether the process runs in production (NODE_ENV=production, as docker-compose.yml sets it). */
const ProductionSchema = z.object({ NODE_ENV: z.string().optional() }).transform((e) => e.NODE_ENV === 'production');

/**
 * The site (registrable domain, by the public suffix list) of a URL's host; the host itself for an IP address
 * or a name without a public suffix (localhost).
 */
function siteOf(url: string): string {
  const host = new URL(url).hostname;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * The settings that are valid one by one but not together in production. An e-learning origin on the
 * portal's own site receives the portal's cookies (the browser sends SameSite cookies to every origin of the
 * site): only the XSRF check would stand between a package's script and the person's session.
 */
function productionProblems(cfg: ApiConfig): string[] {
  if (!cfg.ELEARNING_ORIGIN) return [];
  const site = siteOf(cfg.PORTAL_URL);
  return siteOf(cfg.ELEARNING_ORIGIN) === site
    ? [`  ELEARNING_ORIGIN: must be another site than PORTAL_URL (${site}), or unset to serve packages sandboxed`]
    : [];
}

/**
 * Parses the environment.
 * @throws Error naming every bad or missing variable.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = ApiConfigSchema.safeParse(env);
  const lines = parsed.success
    ? ProductionSchema.parse(env)
      ? productionProblems(parsed.data)
      : []
    : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  if (parsed.success && lines.length === 0) return parsed.data;
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}
