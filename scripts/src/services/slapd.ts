/**
 * OpenLDAP for the local stack: Debian's `slapd` run in the foreground with the project's config
 * (ldap/slapd.conf.template) and an mdb database in the data folder, on a loopback port.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ARGON2_DEFAULTS, type Argon2Params, type DirectoryConfig, argon2Hash, ensureTree } from '@portal/directory';
import { waitForPort } from '../net';
import { repoPath } from '../paths';
import { clearStale, type ExitInfo, type Log, spawnManaged, untilReady } from '../procs';

export const SLAPD_BINARY = '/usr/sbin/slapd';
export const LDAP_BASE_DN = 'dc=portal,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE_DN}`;

/**
 * The cost of the admin's rootpw hash. The admin's secret is machine-generated (secrets.ts: 144 random bits),
 * which no cost makes easier or harder to guess, and the portal binds as the admin for every look-up: a
 * memory-hard cost there would be paid several times per sign-in for nothing. Persons' passwords, chosen by
 * people, get the full cost (`argon2`).
 */
const ADMIN_SECRET_ARGON2: Argon2Params = { memoryKib: 1_024, timeCost: 1, parallelism: 1 };

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
  return template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, name: string) => {
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
  /** The Argon2id cost of the module and of the admin's password (ARGON2_DEFAULTS: the portal's default). */
  argon2?: Argon2Params;
  log: Log;
}): Promise<SlapdHandle> {
  const argon2 = opts.argon2 ?? ARGON2_DEFAULTS;
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
    ADMIN_PASSWORD_HASH: await argon2Hash(opts.adminPassword, ADMIN_SECRET_ARGON2),
    ARGON2_MEMORY_KIB: String(argon2.memoryKib),
    ARGON2_TIME_COST: String(argon2.timeCost),
    ARGON2_PARALLELISM: String(argon2.parallelism),
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
    PASSWORD_ARGON2_MEMORY_KIB: argon2.memoryKib,
    PASSWORD_ARGON2_TIME_COST: argon2.timeCost,
    PASSWORD_ARGON2_PARALLELISM: argon2.parallelism,
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
