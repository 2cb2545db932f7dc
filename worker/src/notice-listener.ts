/**
 * Starts the work a transaction wrote rows for as soon as it commits: the writer notifies a PostgreSQL channel
 * in its transaction, which PostgreSQL delivers only on commit, so every path that writes such rows, today's
 * and later ones, is covered without its caller knowing. On each notification the listener runs its `pass`
 * (start every unstarted row); several workers listening start each once (the starts are idempotent). A
 * notification lost while the connection was down is not lost work: after reconnecting the listener runs one
 * pass, and the reconciler's timer remains. Used by back-channel logout (issue 22) and provisioning (issue 41).
 */
import pg from 'pg';

export interface NoticeListenerOptions {
  /** The PostgreSQL URL (the worker's DATABASE_URL). */
  connectionString: string;
  /** The channel the writers notify. */
  channel: string;
  /** How the log lines name this listener. */
  name: string;
  /** Starts every unstarted row; `stopped()` turns true when the listener is stopping. */
  pass: (stopped: () => boolean) => Promise<void>;
  /** Wait before reconnecting after the connection failed, in ms. */
  retryMs?: number;
  log?: (message: string) => void;
}

/** Listens until the returned stop function is called; never throws (failures are logged and retried). */
export function listenForNotices(opts: NoticeListenerOptions): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // One pass at a time; a notification during a pass asks for one more.
  let running: Promise<void> | undefined;
  let again = false;

  const pass = async (): Promise<void> => {
    do {
      again = false;
      await opts.pass(() => stopped);
    } while (again && !stopped);
  };
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((err: unknown) => opts.log?.(`${opts.name}: pass failed: ${(err as Error).message}`))
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
      if (err) opts.log?.(`${opts.name}: connection lost: ${err.message}`);
      if (!stopped) retry = setTimeout(() => void connect(), opts.retryMs ?? 5_000);
    };
    c.on('error', reconnect);
    c.on('end', () => reconnect(new Error('connection ended')));
    c.on('notification', kick);
    try {
      await c.connect();
      await c.query(`LISTEN ${opts.channel}`);
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
