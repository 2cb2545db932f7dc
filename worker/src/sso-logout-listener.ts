/**
 * Starts back-channel logout notices as soon as their revocation commits (issue 22: "started after the
 * commit like every job here"). The revocation (prisma/src/sso-revocation.ts) notifies `SSO_LOGOUT_CHANNEL`
 * in its transaction, which PostgreSQL delivers only on commit, so every removal path, today's and later
 * ones, is covered without its caller knowing. The listener then starts every unstarted notice; several
 * workers listening start each once (USE_EXISTING). A notification lost while the connection was down is
 * not lost work: after reconnecting the listener runs one pass, and the reconciler's timer remains.
 */
import pg from 'pg';
import { SSO_LOGOUT_CHANNEL } from '@portal/db';
import { type LogoutNoticeStarter, startLogoutNotice, unstartedLogoutNotices } from './sso-logout-reconcile';

export interface LogoutListenerOptions extends LogoutNoticeStarter {
  /** The PostgreSQL URL (the worker's DATABASE_URL). */
  connectionString: string;
  /** Wait before reconnecting after the connection failed, in ms. */
  retryMs?: number;
  log?: (message: string) => void;
}

/** Listens until the returned stop function is called; never throws (failures are logged and retried). */
export function listenForLogoutNotices(opts: LogoutListenerOptions): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // One pass at a time; a notification during a pass asks for one more.
  let running: Promise<void> | undefined;
  let again = false;

  const pass = async (): Promise<void> => {
    do {
      again = false;
      for (const row of await unstartedLogoutNotices(opts.prisma)) {
        if (stopped) return;
        try {
          await startLogoutNotice(opts, row);
        } catch (err) {
          opts.log?.(`logout listener: notice ${row.id} not started: ${(err as Error).message}`);
        }
      }
    } while (again && !stopped);
  };
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((err: unknown) => opts.log?.(`logout listener: pass failed: ${(err as Error).message}`))
      .finally(() => (running = undefined));
  };

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: opts.connectionString });
    client = c;
    const reconnect = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      c.removeAllListeners();
      void c.end().catch(() => undefined);
      if (err) opts.log?.(`logout listener: connection lost: ${err.message}`);
      if (!stopped) retry = setTimeout(() => void connect(), opts.retryMs ?? 5_000);
    };
    c.on('error', reconnect);
    c.on('end', () => reconnect(new Error('connection ended')));
    c.on('notification', kick);
    try {
      await c.connect();
      await c.query(`LISTEN ${SSO_LOGOUT_CHANNEL}`);
      kick(); // whatever was committed while nobody listened
    } catch (err) {
      reconnect(err as Error);
    }
  };
  void connect();

  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    await c?.end().catch(() => undefined);
    await running;
  };
}
