/**
 * The whole local stack in one call: backing services (or the ones the environment points at), Prisma
 * migrations, the demo seed, then the worker and the API. Used by `npm run up` and by tests. A crashed
 * worker or API is restarted with backoff (supervisor.ts); only a backing service that dies ends the stack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type AppsHandle, startApps } from './apps';
import type { RestartPolicy } from './backoff';
import { loadStackEnv } from './config';
import { migrateDatabase, seedDatabase } from './database';
import { demoLisEnv, startDemoLis } from './demo-lis';
import { demoSystemEnv, startDemoSystem } from './demo-system/start';
import { apiPorts } from './instances';
import { repoPath } from './paths';
import { type PortName, planPorts } from './ports';
import { type ExitInfo, type Log, killAllManaged } from './procs';
import { loadOrCreateSecrets } from './secrets';
import { sealSigningKey } from '@portal/db';
import { clearLeftovers, type RunningService, startServices, stopServices } from './services';

export interface StackOptions {
  /** Folder for every service's data and the local secrets; reused by the next start. */
  dataDir: string;
  /** 'default': fixed ports (8080, 7233, ...; env vars override); 'random': free ports. Default 'default'. */
  ports?: 'default' | 'random';
  /** Run the (idempotent) demo seed. Default false. */
  seed?: boolean;
  /**
   * Start the worker and the API and wait for its health endpoint, then the demo study system (issue 22); and,
   * before the seed, the demo laboratory system's SCIM target (issue 41). Default false.
   */
  apps?: boolean;
  /** Receives every log line (children's lines are prefixed `[name]`). Default console.log. */
  log?: Log;
  /** Environment to read the configuration from and to pass on. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Stop the stack and exit on SIGINT/SIGTERM. Default true. */
  handleSignals?: boolean;
  /**
   * Called when a backing service (postgres, temporal, slapd, mail) exits while the stack is running.
   * Default: log it. The worker and the API are restarted instead, with `restartPolicy`.
   */
  onUnexpectedExit?: (name: string, info: ExitInfo) => void;
  /** Backoff of worker and API restarts. Default 1 s doubling to 30 s, reset after 60 s up. */
  restartPolicy?: RestartPolicy;
  /** With `apps`: how many API processes and workers to run (issue 24; instances.ts). Default 1. */
  instances?: number;
}

export interface StackUrls {
  /** http://localhost:PORT: the API, which also serves the web app (a host name: passkeys refuse an IP address). */
  portal: string;
  /** Every API process's own URL (`portal` first), with `apps`; one per instance. */
  portals?: string[];
  /** Temporal Web UI; undefined when TEMPORAL_ADDRESS is external and TEMPORAL_UI_URL unset. */
  temporalUi?: string;
  /** host:port of the Temporal frontend. */
  temporalAddress: string;
  /** Mail catcher UI; undefined when SMTP_URL is external and MAIL_UI_URL unset. */
  mailUi?: string;
  /** Base URL of the mail catcher's REST API (see readMail()). */
  mailApi?: string;
  smtp: string;
  ldap: string;
  database: string;
  /** The demo study system 'Electronic Data Capture (demo)' (http://127.0.0.1:PORT); with `apps` only. */
  demoSystem?: string;
  /**
   * The SCIM base URL (http://127.0.0.1:PORT) of the demo 'Laboratory Information System (demo)', scim2-server
   * (issue 41); its bearer token is `Stack.demoScimToken`. With `apps` only.
   */
  demoScim?: string;
  /** The first API's /metrics (Prometheus text, no token) on METRICS_PORT; with `apps` only. */
  metrics?: string;
}

/** The variables the worker, API and seed read (fixed names). */
export interface PortalEnv extends Record<string, string | undefined> {
  DATABASE_URL: string;
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_TASK_QUEUE: string;
  TEMPORAL_UI_URL?: string;
  LDAP_URL: string;
  LDAP_BASE_DN: string;
  LDAP_ADMIN_DN: string;
  LDAP_ADMIN_PASSWORD: string;
  SMTP_URL: string;
  MAIL_FROM: string;
  MAIL_UI_URL?: string;
  HOST: string;
  PORT: string;
  /** The portal's public base URL, for links in mail (http://localhost:PORT). */
  PORTAL_URL: string;
  /** The passkeys' relying party id (localhost) and every API process's origin the browser may report. */
  WEBAUTHN_RP_ID: string;
  WEBAUTHN_ORIGINS: string;
  WEB_DIST: string;
  SESSION_TIMEOUT_SECONDS: string;
  SESSION_SECRET: string;
  /** The worker's key for the links in outbox mails: the same for every worker of the stack. */
  MAIL_LINK_KEY: string;
  /** The API's key for the single sign-on provider's stored signing keys (issue 22): the same for every API process. */
  OIDC_KEY_ENCRYPTION_KEY: string;
  /** The API's key for the second factors' sealed secrets (issue 37): the same for every API process. */
  SECOND_FACTOR_KEY: string;
  /** The API's key for the captcha's challenges (issue 24): the same for every API process. */
  CAPTCHA_HMAC_KEY: string;
  /** The workers' key for the audit seals and its public half for verifying them (issue 39). */
  AUDIT_SEAL_PRIVATE_KEY: string;
  AUDIT_SEAL_PUBLIC_KEYS: string;
  /** The API's key for the e-learning packages' signed paths: the same for every API process. */
  ELEARNING_URL_KEY: string;
  /** The API's and the workers' key for the SCIM bearer tokens (issue 41): the API seals what the worker opens. */
  PROVISIONING_KEY: string;
  NODE_ENV: string;
}

export interface Stack {
  urls: StackUrls;
  /** The full environment given to the children: the parent's environment plus `portalEnv`. */
  env: NodeJS.ProcessEnv;
  /** Only the portal's own variables. */
  portalEnv: PortalEnv;
  /**
   * The demo laboratory system's bearer token (secrets.json `demoScimToken`, issue 41), with `apps`: for reading
   * its /Users beside `urls.demoScim`. Only the seed gets it (DEMO_SCIM_TOKEN), sealed into the connection.
   */
  demoScimToken?: string;
  /** The supervised workers and APIs (with `apps: true`): their current pids, for fault tests. */
  apps?: Pick<AppsHandle, 'worker' | 'api' | 'workers' | 'apis'>;
  /** Stops the apps (SIGTERM, SIGKILL after 5 s), then the services in reverse order. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The portal's host name in the local stack. The demo study system and the e-learning origin stay on 127.0.0.1:
 * another site, so the cross-site cases (SameSite=Strict cookies across the sign-on redirect, e-learning
 * isolation) are still exercised.
 */
export const PORTAL_HOST = 'localhost';

/** The portal's base URL on `port` in the local stack. */
export const portalUrl = (port: number): string => `http://${PORTAL_HOST}:${port}`;

const live = new Set<Stack>();
let signalsHandled = false;

function handleSignals(log: Log): void {
  if (signalsHandled) return;
  signalsHandled = true;
  let stoppingSince = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    // A wrapper (npx, tsx) may pass on the terminal's Ctrl-C a moment after it arrived here directly.
    if (stoppingSince && Date.now() - stoppingSince < 1_500) return;
    if (stoppingSince) {
      log(`[stack] ${signal} again: killing everything`);
      killAllManaged();
      process.exit(1);
    }
    stoppingSince = Date.now();
    log(`[stack] ${signal}: stopping (press Ctrl-C again to force)`);
    void Promise.allSettled([...live].map((s) => s.stop())).finally(() =>
      process.exit(signal === 'SIGINT' ? 130 : 143),
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** How many times random ports are planned before a taken one fails the start (see startStack). */
const PORT_ATTEMPTS = 3;

/**
 * Starts the local stack and returns its URLs, the children's environment and a stop function.
 * @throws ConfigError naming invalid environment variables; Error naming a busy port and the variable that
 *   moves it; Error with a service's output when it does not start (whatever started is stopped first).
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const parentEnv = options.env ?? process.env;
  const cfg = loadStackEnv(parentEnv);
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const secrets = loadOrCreateSecrets(dataDir);
  const auditSealKey = parentEnv.AUDIT_SEAL_PRIVATE_KEY ?? secrets.auditSealPrivateKey;
  await clearLeftovers(dataDir, log);

  const needed = new Set<PortName>();
  if (options.apps) {
    (['portal', 'demoSystem', 'elearning', 'metrics', 'demoScim'] as const).forEach((p) => needed.add(p));
  }
  if (!cfg.DATABASE_URL) needed.add('postgres');
  if (!cfg.TEMPORAL_ADDRESS) {
    (['temporal', 'temporalUi', 'temporalHttp', 'temporalMetrics'] as const).forEach((p) => needed.add(p));
  }
  if (!cfg.LDAP_URL) needed.add('ldap');
  if (!cfg.SMTP_URL) (['smtp', 'mailUi'] as const).forEach((p) => needed.add(p));
  if (options.handleSignals ?? true) handleSignals(log);
  const started = Date.now();
  // Random ports are picked free, released, and bound by each service a moment later: another process on the
  // machine may take one in between (a test stack starting beside another once lost Temporal's HTTP port).
  // Then the services are planned again on other ports; the fixed default ports are reported as they are.
  let ports: Awaited<ReturnType<typeof planPorts>>;
  let startedServices: Awaited<ReturnType<typeof startServices>>;
  for (let attempt = 1; ; attempt++) {
    ports = await planPorts(options.ports ?? 'default', cfg, needed);
    try {
      startedServices = await startServices({
        dataDir,
        env: cfg,
        ports,
        ldapAdminPassword: secrets.ldapAdminPassword,
        log,
      });
      break;
    } catch (err) {
      const taken = /address already in use|EADDRINUSE/.test(String(err));
      if (options.ports !== 'random' || !taken || attempt === PORT_ATTEMPTS) throw err;
      log(
        `[stack] a planned port was taken before its service bound it: planning again (${attempt + 1} of ${PORT_ATTEMPTS})`,
      );
    }
  }
  const { endpoints: ep, services } = startedServices;
  const portalPorts = options.apps ? await apiPorts(options.ports ?? 'default', ports, options.instances ?? 1) : [];
  const running: RunningService[] = [...services];
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping = true;
    stopped ??= stopServices(running, log).finally(() => live.delete(stack));

    return stopped;
  };

  const portalEnv: PortalEnv = {
    DATABASE_URL: ep.databaseUrl,
    TEMPORAL_ADDRESS: ep.temporalAddress,
    TEMPORAL_NAMESPACE: cfg.TEMPORAL_NAMESPACE,
    TEMPORAL_TASK_QUEUE: cfg.TEMPORAL_TASK_QUEUE,
    TEMPORAL_UI_URL: ep.temporalUiUrl,
    LDAP_URL: ep.ldapUrl,
    LDAP_BASE_DN: cfg.LDAP_BASE_DN,
    LDAP_ADMIN_DN: cfg.LDAP_ADMIN_DN,
    LDAP_ADMIN_PASSWORD: ep.ldapAdminPassword,
    SMTP_URL: ep.smtpUrl,
    MAIL_FROM: cfg.MAIL_FROM,
    MAIL_UI_URL: ep.mailUiUrl,
    // Every process listens on the loopback address; the portal is reached by a host name, since WebAuthn's
    // relying party id cannot be an IP address (browsers refuse one).
    HOST: '127.0.0.1',
    PORT: String(ports.portal),
    PORTAL_URL: portalUrl(ports.portal),
    WEBAUTHN_RP_ID: PORTAL_HOST,
    // One origin per API process: a person may sign in on any of them (they share the sessions).
    WEBAUTHN_ORIGINS: (portalPorts.length ? portalPorts : [ports.portal]).map(portalUrl).join(','),
    // E-learning packages from another host name than the portal's (127.0.0.1, not localhost): another origin
    // and another site, so the portal's cookies are not even sent to it (issue 23).
    ELEARNING_PORT: String(ports.elearning),
    ELEARNING_ORIGIN: `http://127.0.0.1:${ports.elearning}`,
    WEB_DIST: repoPath('web', 'dist'),
    SESSION_TIMEOUT_SECONDS: String(cfg.SESSION_TIMEOUT_SECONDS),
    SESSION_SECRET: cfg.SESSION_SECRET ?? secrets.sessionSecret,
    MAIL_LINK_KEY: cfg.MAIL_LINK_KEY ?? secrets.mailLinkKey,
    OIDC_KEY_ENCRYPTION_KEY: cfg.OIDC_KEY_ENCRYPTION_KEY ?? secrets.oidcKeyEncryptionKey,
    SECOND_FACTOR_KEY: cfg.SECOND_FACTOR_KEY ?? secrets.secondFactorKey,
    CAPTCHA_HMAC_KEY: cfg.CAPTCHA_HMAC_KEY ?? secrets.captchaHmacKey,
    ELEARNING_URL_KEY: cfg.ELEARNING_URL_KEY ?? secrets.elearningUrlKey,
    PROVISIONING_KEY: cfg.PROVISIONING_KEY ?? secrets.provisioningKey,
    // The caller's own key, or '' for workers that must seal nothing (apps against a shared database).
    AUDIT_SEAL_PRIVATE_KEY: auditSealKey,
    AUDIT_SEAL_PUBLIC_KEYS: auditSealKey ? sealSigningKey(auditSealKey).publicRaw : '',
    NODE_ENV: cfg.NODE_ENV,
  };
  for (const key of Object.keys(portalEnv)) if (portalEnv[key] === undefined) delete portalEnv[key];
  const env: NodeJS.ProcessEnv = { ...parentEnv, ...portalEnv };
  const portal = portalUrl(ports.portal);
  // The demo study system's client: registered by the seed, used by the demo system (same secret, same port).
  const demoEnv = demoSystemEnv({
    port: ports.demoSystem,
    issuer: parentEnv.OIDC_ISSUER || `${portal}/oidc`,
    clientSecret: secrets.demoSystemClientSecret,
  });
  // The demo laboratory system's URL and token, for the seed alone (the apps read the sealed token from PostgreSQL).
  let lisEnv: Record<string, string> = {};
  const stack: Stack = {
    urls: {
      portal,
      temporalUi: ep.temporalUiUrl,
      temporalAddress: ep.temporalAddress,
      mailUi: ep.mailUiUrl,
      mailApi: ep.mailUiUrl,
      smtp: ep.smtpUrl,
      ldap: ep.ldapUrl,
      database: ep.databaseUrl,
    },
    env,
    portalEnv,
    stop,
  };
  live.add(stack);

  try {
    if (options.apps) {
      // Before the seed, which registers it (prisma/seed/demo-lis.ts), and before the worker, which provisions it.
      const lis = await startDemoLis(ports.demoScim, secrets.demoScimToken, log);
      running.push({ name: 'demo-lis', stop: () => lis.stop() });
      lisEnv = demoLisEnv({ url: lis.url, token: secrets.demoScimToken });
      stack.urls.demoScim = lis.url;
      stack.demoScimToken = secrets.demoScimToken;
    }
    await migrateDatabase(ep.databaseUrl, log);
    if (options.seed) await seedDatabase({ ...env, ...demoEnv, ...lisEnv }, log);
    if (options.apps) {
      // /metrics on a listener of its own, as production serves it; only for the apps started here, so a test's
      // or a person's own API on this environment does not take the port.
      const appsEnv = { ...env, METRICS_PORT: String(ports.metrics) };
      const apps = await startApps(appsEnv, portalPorts, log, options.restartPolicy);
      running.push({ name: 'apps', stop: () => apps.stop() });
      stack.apps = { worker: apps.worker, api: apps.api, workers: apps.workers, apis: apps.apis };
      stack.urls.portals = portalPorts.map(portalUrl);
      stack.urls.metrics = `http://127.0.0.1:${ports.metrics}/metrics`;
      const demo = await startDemoSystem({ ...env, ...demoEnv }, ports.demoSystem, log, options.restartPolicy);
      running.push({ name: 'demo-system', stop: () => demo.stop() });
      stack.urls.demoSystem = demoEnv.DEMO_SYSTEM_URL;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const onExit = options.onUnexpectedExit ?? ((name, i) => log(`[stack] ${name} exited (${i.signal ?? i.code})`));
  for (const s of running) void s.exited?.then((info) => !stopping && onExit(s.name, info));
  log(`[stack] up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return stack;
}
