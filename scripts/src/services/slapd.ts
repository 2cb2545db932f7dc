/**
 * OpenLDAP for the local stack: Debian's `slapd` run in the foreground with the project's config
 * (ldap/slapd.conf.template) and an mdb database in the data folder, on a loopback port.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type DirectoryConfig, ensureTree, sshaHash } from '@portal/directory';
import { waitForPort } from '../net';
import { repoPath } from '../paths';
import { clearStale, type ExitInfo, type Log, spawnManaged, untilReady } from '../procs';

export const SLAPD_BINARY = '/usr/sbin/slapd';
export const LDAP_BASE_DN = 'dc=portal,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE_DN}`;

export interface SlapdHandle {
  url: string;
  directory: DirectoryConfig;
  /** Resolves when the server process exits (expectedly or not). */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

/**
 * Renders ldap/slapd.conf.template: every `{{NAME}}` is replaced by `values[NAME]`.
 * @throws Error naming a placeholder that has no value.
 */
export function renderSlapdConf(values: Record<string, string>): string {
  const template = fs.readFileSync(repoPath('ldap', 'slapd.conf.template'), 'utf8');
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`ldap/slapd.conf.template: no value for {{${name}}}`);
    return value;
  });
}

/**
 * Starts slapd on 127.0.0.1:`port` with its database in `<dataDir>/db`, then creates the base entries and
 * the default password policy (idempotent). The admin password is only stored hashed in the config.
 * @throws Error when slapd is not installed (run scripts/install.sh), exits, or does not listen in 30 s.
 */
export async function startSlapd(opts: {
  dataDir: string;
  port: number;
  adminPassword: string;
  baseDn?: string;
  adminDn?: string;
  log: Log;
}): Promise<SlapdHandle> {
  const baseDn = opts.baseDn ?? LDAP_BASE_DN;
  const adminDn = opts.adminDn ?? LDAP_ADMIN_DN;
  if (!fs.existsSync(SLAPD_BINARY)) {
    throw new Error(
      `${SLAPD_BINARY} not found: run \`bash scripts/install.sh\` (installs Debian's slapd and ldap-utils)`,
    );
  }
  const dataDir = path.resolve(opts.dataDir);
  const dbDir = path.join(dataDir, 'db');
  fs.mkdirSync(dbDir, { recursive: true });
  await clearStale(path.join(dataDir, 'slapd.pid'), 'slapd', opts.log);

  const confFile = path.join(dataDir, 'slapd.conf');
  const conf = renderSlapdConf({
    DATA_DIR: dataDir,
    DB_DIR: dbDir,
    BASE_DN: baseDn,
    ADMIN_DN: adminDn,
    ADMIN_PASSWORD_HASH: sshaHash(opts.adminPassword),
    LOG_LEVEL: 'none',
  });
  fs.writeFileSync(confFile, conf, { mode: 0o600 });

  const url = `ldap://127.0.0.1:${opts.port}`;
  // -d 0: stay in the foreground without debug output; configuration errors still reach stderr.
  const proc = spawnManaged({
    name: 'slapd',
    command: SLAPD_BINARY,
    args: ['-f', confFile, '-h', `${url}/`, '-d', '0'],
    log: opts.log,
  });
  const directory: DirectoryConfig = {
    LDAP_URL: url,
    LDAP_BASE_DN: baseDn,
    LDAP_ADMIN_DN: adminDn,
    LDAP_ADMIN_PASSWORD: opts.adminPassword,
  };
  try {
    await untilReady(proc, waitForPort(opts.port, 'slapd', 30_000, '127.0.0.1', proc.isRunning));
    await ensureTree(directory);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { url, directory, exited: proc.exited, stop: () => proc.stop() };
}
