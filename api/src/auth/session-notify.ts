/**
 * The listener that keeps the session cache (session-cache.ts) true across API processes: one PostgreSQL
 * connection `LISTEN`ing on `session_changed` (shared/pg-listener.ts). The cache serves only while this
 * connection listens; when it drops, the cache is bypassed and emptied, and the listener reconnects with
 * backoff (250 ms doubling to 10 s), emptying the cache again once it listens.
 */
import { listenForCache } from '../shared/pg-listener';
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
  const listener = listenForCache(
    databaseUrl,
    SESSION_CHANNEL,
    cache,
    (payload) => cache.apply(parseSessionChange(payload)),
    onEvent,
  );
  return {
    ready: listener.ready,
    async close() {
      cache.setListening(false);
      await listener.close();
    },
  };
}
