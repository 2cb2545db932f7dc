/**
 * A second API process on a running stack's services, with settings of its own (a short session timeout,
 * signatures on): for journeys and benches that need them while the stack's own API keeps the defaults. It
 * runs the API the stack built (no second compilation), on the portal's host name (passkeys refuse an IP
 * address), and serves the e-learning packages sandboxed (the stack's API holds the e-learning port).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_ENTRY, freePort, waitForHttp } from '@portal/scripts';

const REPO = path.join(import.meta.dirname, '..', '..');

export interface ExtraApi {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the API with the stack's `portalEnv` and `overrides` on a free port of `hostname`; its warnings and
 * errors go to `logFile` (ignored when absent). @returns its URL and how to stop it. @throws when it does not
 * answer its health check within 60 s.
 */
export async function startExtraApi(opts: {
  portalEnv: Record<string, string | undefined>;
  hostname: string;
  overrides: Record<string, string>;
  logFile?: (port: number) => string;
}): Promise<ExtraApi> {
  const port = await freePort();
  const url = `http://${opts.hostname}:${port}`;
  const log = opts.logFile ? fs.openSync(opts.logFile(port), 'a') : 'ignore';
  const proc = spawn(process.execPath, ['--enable-source-maps', API_ENTRY], {
    cwd: REPO,
    env: {
      ...process.env,
      ...opts.portalEnv,
      PORT: String(port),
      PORTAL_URL: url,
      WEBAUTHN_ORIGINS: url,
      LOG_LEVEL: 'warn',
      ELEARNING_PORT: '',
      ELEARNING_ORIGIN: '',
      ...opts.overrides,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  if (typeof log === 'number') fs.closeSync(log);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHttp(`${url}/rest/public/health`, 'second API', 60_000, () => proc.exitCode === null);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
