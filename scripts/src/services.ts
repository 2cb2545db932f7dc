/**
 * The four backing services of the local stack, each started here unless its environment variable points
 * at one already running (DATABASE_URL, TEMPORAL_ADDRESS, LDAP_URL, SMTP_URL).
 */
import path from 'node:path';
import type { StackEnv } from './config';
import type { PortPlan } from './ports';
import { clearStale, type ExitInfo, type Log } from './procs';
import { startMail } from './services/mail';
import { startPostgres } from './services/postgres';
import { startSlapd } from './services/slapd';
import { startTemporal } from './services/temporal';
import { resolveTemporalBinary } from './temporal-binary';

export interface ServiceEndpoints {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  ldapUrl: string;
  ldapAdminPassword: string;
  smtpUrl: string;
  mailUiUrl?: string;
}

export interface RunningService {
  name: string;
  exited?: Promise<ExitInfo>;
  stop(): Promise<void>;
}

/**
 * Starts the services that are not configured externally, in parallel. On any failure the ones that did
 * start are stopped again.
 * @returns the endpoints (external or local) and the started services, in start order.
 * @throws Error combining the messages of every service that failed.
 */
export async function startServices(opts: {
  dataDir: string;
  env: StackEnv;
  ports: PortPlan;
  ldapAdminPassword: string;
  log: Log;
}): Promise<{ endpoints: ServiceEndpoints; services: RunningService[] }> {
  const { env, ports, log } = opts;
  const dir = (name: string): string => path.join(opts.dataDir, name);
  const prefixed =
    (name: string): Log =>
    (line) =>
      log(`[${name}] ${line}`);

  const postgres = env.DATABASE_URL
    ? undefined
    : startPostgres({
        dataDir: dir('postgres'),
        port: ports.postgres,
        database: 'portal',
        sharedBuffers: env.POSTGRES_SHARED_BUFFERS,
        maxConnections: env.POSTGRES_MAX_CONNECTIONS ?? 300,
        log: prefixed('postgres'),
      });
  const temporal = env.TEMPORAL_ADDRESS
    ? undefined
    : Promise.resolve().then(() =>
        startTemporal({
          binary: resolveTemporalBinary(),
          dataDir: dir('temporal'),
          port: ports.temporal,
          uiPort: ports.temporalUi,
          httpPort: ports.temporalHttp,
          metricsPort: ports.temporalMetrics,
          namespace: env.TEMPORAL_NAMESPACE,
          log,
        }),
      );
  const slapd = env.LDAP_URL
    ? undefined
    : startSlapd({
        dataDir: dir('ldap'),
        port: ports.ldap,
        adminPassword: opts.ldapAdminPassword,
        baseDn: env.LDAP_BASE_DN,
        adminDn: env.LDAP_ADMIN_DN,
        log,
      });
  const mail = env.SMTP_URL
    ? undefined
    : startMail({ dataDir: dir('maildev'), smtpPort: ports.smtp, webPort: ports.mailUi, log });

  const named = [
    ['postgres', postgres],
    ['temporal', temporal],
    ['slapd', slapd],
    ['mail', mail],
  ] as const;
  const settled = await Promise.allSettled(named.map(([, p]) => p ?? Promise.resolve(undefined)));
  const services: RunningService[] = [];
  const failures: string[] = [];
  settled.forEach((result, i) => {
    const name = named[i]![0];
    if (result.status === 'rejected') failures.push(`${name}: ${(result.reason as Error)?.message ?? result.reason}`);
    else if (result.value) {
      const v = result.value;
      services.push({ name, stop: () => v.stop(), exited: v.exited });
    }
  });
  if (failures.length) {
    await stopServices(services, log);
    throw new Error(`The local stack could not start:\n${failures.join('\n')}`);
  }
  const [pgH, temporalH, slapdH, mailH] = [await postgres, await temporal, await slapd, await mail];
  return {
    services,
    endpoints: {
      databaseUrl: env.DATABASE_URL ?? pgH!.url,
      temporalAddress: env.TEMPORAL_ADDRESS ?? temporalH!.address,
      temporalUiUrl: env.TEMPORAL_ADDRESS ? env.TEMPORAL_UI_URL : temporalH!.uiUrl,
      ldapUrl: env.LDAP_URL ?? slapdH!.url,
      ldapAdminPassword: env.LDAP_URL ? env.LDAP_ADMIN_PASSWORD! : opts.ldapAdminPassword,
      smtpUrl: env.SMTP_URL ?? mailH!.smtpUrl,
      mailUiUrl: env.SMTP_URL ? env.MAIL_UI_URL : mailH!.uiUrl,
    },
  };
}

/**
 * Stops service processes a crashed earlier run left behind in `dataDir` (so their ports are free again).
 * @throws Error when a live run still owns the folder.
 */
export async function clearLeftovers(dataDir: string, log: Log): Promise<void> {
  const say: Log = (line) => log(`[stack] ${line}`);
  await clearStale(path.join(dataDir, 'postgres', 'postmaster.pid'), 'PostgreSQL', say, 'SIGINT');
  await clearStale(path.join(dataDir, 'temporal', 'temporal.pid'), 'Temporal dev server', say);
  await clearStale(path.join(dataDir, 'ldap', 'slapd.pid'), 'slapd', say);
  await clearStale(path.join(dataDir, 'maildev', 'maildev.pid'), 'MailDev', say);
}

/** Stops services in reverse start order; logs (does not throw) individual failures. */
export async function stopServices(services: RunningService[], log: Log): Promise<void> {
  for (const service of [...services].reverse()) {
    try {
      await service.stop();
    } catch (err) {
      log(`[stack] stopping ${service.name} failed: ${(err as Error).message}`);
    }
  }
}
