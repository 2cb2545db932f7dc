/**
 * The listener that keeps the session cache (session-cache.ts) true across API processes: one PostgreSQL
 * connection `LISTEN`ing on `session_changed`. The cache serves only while this connection listens; when it
 * drops, the cache is bypassed and emptied, and the listener reconnects with backoff (250 ms doubling to
 * 10 s), emptying the cache again once it listens.
 */
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import { parseSessionChange, type SessionCache } from './session-cache';

export const SESSION_CHANNEL = 'session_changed';

export interface SessionListener {
  /** Resolves once the first LISTEN succeeded, or the first attempt failed (the cache stays bypassed). */
  ready: Promise<void>;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/**
 * Starts listening for `cache`. `onEvent` is told about drops and reconnects (logged by the caller).
 */
export function listenForSessionChanges(
  databaseUrl: string,
  cache: SessionCache,
  onEvent: (event: 'listening' | 'lost', err?: Error) => void,
): SessionListener {
  let client: pg.Client | undefined;
  let closed = false;
  let delayMs = 250;
  let timer: NodeJS.Timeout | undefined;
  let settle!: () => void;
  const ready = new Promise<void>((resolve) => (settle = resolve));

  const lost = (err?: Error) => {
    if (closed) return;
    cache.setListening(false);
    onEvent('lost', err);
    const dead = client;
    client = undefined;
    dead?.removeAllListeners();
    dead?.on('error', () => {});
    void dead?.end().catch(() => {});
    timer = setTimeout(connect, delayMs);
    timer.unref();
    delayMs = Math.min(delayMs * 2, 10_000);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client(poolConfigFromUrl(databaseUrl));
    client = next;
    next.on('notification', (msg) => {
      if (msg.channel === SESSION_CHANNEL) cache.apply(parseSessionChange(msg.payload));
    });
    next.on('error', (err) => lost(err));
    next.on('end', () => client === next && lost());
    try {
      await next.connect();
      await next.query(`LISTEN ${SESSION_CHANNEL}`);
      if (closed || client !== next) return;
      delayMs = 250;
      cache.setListening(true);
      onEvent('listening');
    } catch (err) {
      if (client === next) lost(err as Error);
    } finally {
      settle();
    }
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      cache.setListening(false);
      const dead = client;
      client = undefined;
      dead?.removeAllListeners();
      dead?.on('error', () => {});
      await dead?.end().catch(() => {});
    },
  };
}
