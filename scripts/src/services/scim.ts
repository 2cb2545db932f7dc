/**
 * scim2-server (PyPI, installed by scripts/install.sh into its own virtual environment): an in-memory SCIM 2.0
 * server made for testing clients, as the demo 'Laboratory Information System (demo)' and as the provisioning
 * tests' target (issue 41). It serves the schemas of RFC 7643 plus the portal's study-access extension
 * (scim/schemas.json, resource-types.json), accepts one bearer token, and listens on 127.0.0.1. It keeps
 * everything in memory: an outage test freezes it (`freeze`, SIGSTOP) and thaws it, never restarts it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForHttp } from '../net';
import { type ExitInfo, type Log, spawnManaged, untilReady } from '../procs';

/** The version scripts/install.sh installs. */
export const SCIM2_SERVER_VERSION = '0.8.3';

/** The scim2-server executable: SCIM2_SERVER_BIN, or the virtual environment scripts/install.sh made. */
export function scimServerBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SCIM2_SERVER_BIN) return env.SCIM2_SERVER_BIN;
  const home = env.HOME ?? os.homedir();
  const bin = path.join(
    home,
    '.cache',
    'portal-gateway',
    `scim2-server-${SCIM2_SERVER_VERSION}`,
    'bin',
    'scim2-server',
  );
  if (!fs.existsSync(bin)) throw new Error(`scim2-server is not installed at ${bin}: run scripts/install.sh`);
  return bin;
}

const here = import.meta.dirname;
/** RFC 7643's schemas and the portal's extension (contract PORTAL_SCIM_EXTENSION). */
export const SCIM_SCHEMAS_FILE = path.join(here, 'scim', 'schemas.json');
/** User (with the portal's extension) and Group. */
export const SCIM_RESOURCE_TYPES_FILE = path.join(here, 'scim', 'resource-types.json');

export interface ScimHandle {
  /** The SCIM base URL (http://127.0.0.1:port). */
  url: string;
  pid: number;
  exited: Promise<ExitInfo>;
  /** SIGSTOP: the target hangs with its port open, as a frozen process does. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * Starts scim2-server on `port` accepting `token`. `extension` false serves RFC 7643's schemas only, so a user
 * carrying the portal's extension is refused (400), as a target that does not know it would.
 * @throws Error with its last output when it exits or does not answer within 30 s.
 */
export async function startScimServer(opts: {
  port: number;
  token: string;
  log: Log;
  extension?: boolean;
}): Promise<ScimHandle> {
  // `--bearer-token=<token>`: a token beginning with '-' (base64url) is otherwise taken for an option.
  const args = ['--hostname', '127.0.0.1', '--port', String(opts.port), `--bearer-token=${opts.token}`];
  if (opts.extension !== false) args.push('--schema', SCIM_SCHEMAS_FILE, '--resource-type', SCIM_RESOURCE_TYPES_FILE);
  const proc = spawnManaged({
    name: 'scim',
    command: scimServerBinary(),
    args,
    log: opts.log,
    // One line per request: the target's access log is noise in the stack's output.
    mute: /"(GET|POST|PUT|PATCH|DELETE) /,
  });
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await untilReady(proc, waitForHttp(`${url}/ServiceProviderConfig`, 'scim2-server', 30_000, proc.isRunning));
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(proc.pid, s);
    } catch {
      /* already gone */
    }
  };
  return {
    url,
    pid: proc.pid,
    exited: proc.exited,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    stop: async () => {
      signal('SIGCONT');
      await proc.stop();
    },
  };
}
