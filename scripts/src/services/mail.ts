/**
 * SMTP catcher for the local stack: MailDev 3 keeps every message the portal sends (in `<dataDir>`, so
 * it survives restarts) and shows it in a web UI whose REST API tests read (`GET /api/email`).
 * MailDev runs in its own Node process: its module keeps a process-wide message store and exits the
 * process on SIGINT/SIGTERM, which must not happen to the supervisor.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { waitForHttp, waitForPort } from '../net';
import { clearStale, type ExitInfo, type Log, spawnManaged, untilReady } from '../procs';

export interface MailHandle {
  /** smtp://127.0.0.1:port, as SMTP_URL. */
  smtpUrl: string;
  /** Web UI for people. */
  uiUrl: string;
  /** Base URL of the REST API (same server as the UI); see readMail(). */
  apiUrl: string;
  /** Resolves when the server process exits (expectedly or not). */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

/** One caught message, as MailDev's REST API returns it (the fields tests use). */
export interface CaughtMail {
  id: string;
  subject: string;
  from: Array<{ address: string; name: string }>;
  to: Array<{ address: string; name: string }>;
  text?: string;
  html?: string;
  date: string;
}

/**
 * MailDev 3's command-line entry (`dist/bin/maildev.js`). Its `exports` open only the ESM main, so the
 * package folder is found on Node's module search paths instead of through `require.resolve`.
 */
function maildevBin(): string {
  const dirs = createRequire(import.meta.url).resolve.paths('maildev') ?? [];
  const pkg = dirs.map((d) => path.join(d, 'maildev')).find((d) => fs.existsSync(path.join(d, 'package.json')));
  if (!pkg) throw new Error('the maildev package is not installed (npm ci)');
  return path.join(pkg, 'dist', 'bin', 'maildev.js');
}

/** MailDev 3 serves its REST API under `/api` (2.x served it at the root). */
const API = '/api';

/**
 * Starts MailDev with SMTP on `smtpPort` and web UI + REST API on `webPort`, both on 127.0.0.1; messages
 * are kept in `<dataDir>/mail`.
 * @throws Error with MailDev's last output when it exits or does not listen within 30 s.
 */
export async function startMail(opts: {
  dataDir: string;
  smtpPort: number;
  webPort: number;
  log: Log;
}): Promise<MailHandle> {
  const mailDir = path.resolve(opts.dataDir, 'mail');
  fs.mkdirSync(mailDir, { recursive: true });
  const pidFile = path.join(opts.dataDir, 'maildev.pid');
  await clearStale(pidFile, 'MailDev', opts.log);
  // Since MailDev 3 `--ip` binds only SMTP; the web UI and API bind to `--web-ip` (default 0.0.0.0).
  const args = ['--smtp', String(opts.smtpPort), '--web', String(opts.webPort), '--ip', '127.0.0.1'];
  args.push('--web-ip', '127.0.0.1');
  const proc = spawnManaged({
    name: 'mail',
    command: process.execPath,
    args: [maildevBin(), ...args, '--mail-directory', mailDir],
    log: opts.log,
    pidFile,
  });
  const apiUrl = `http://127.0.0.1:${opts.webPort}`;
  try {
    await untilReady(
      proc,
      (async () => {
        await waitForPort(opts.smtpPort, 'MailDev SMTP', 30_000, '127.0.0.1', proc.isRunning);
        await waitForHttp(`${apiUrl}${API}/email`, 'MailDev REST API', 30_000, proc.isRunning);
      })(),
    );
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const smtpUrl = `smtp://127.0.0.1:${opts.smtpPort}`;
  return { smtpUrl, uiUrl: apiUrl, apiUrl, exited: proc.exited, stop: () => proc.stop() };
}

/**
 * Lists every message the catcher holds, oldest first.
 * @param mailApiUrl the stack's `urls.mailApi` (or MAIL_UI_URL)
 * @throws Error when the API does not answer 200.
 */
export async function readMail(mailApiUrl: string): Promise<CaughtMail[]> {
  const res = await fetch(new URL(`${API}/email`, mailApiUrl));
  if (!res.ok) throw new Error(`GET ${mailApiUrl}${API}/email answered ${res.status}`);
  return (await res.json()) as CaughtMail[];
}

/**
 * Deletes every caught message (useful between tests).
 * @throws Error when the API does not answer 200.
 */
export async function clearMail(mailApiUrl: string): Promise<void> {
  const res = await fetch(new URL(`${API}/email/all`, mailApiUrl), { method: 'DELETE' });
  if (!res.ok) throw new Error(`DELETE ${mailApiUrl}${API}/email/all answered ${res.status}`);
}
