/**
 * One PostgreSQL connection `LISTEN`ing on a channel, for the per-process caches PostgreSQL keeps true across
 * API processes (the session cache, the reference lists; docs/decisions.md "Many processes, one truth"). When
 * the connection drops, `onLost` is told (a cache must then stop trusting itself) and it reconnects with
 * backoff (250 ms doubling to 10 s); `onListening` is told each time LISTEN succeeds (a cache may have missed
 * notifications in between, so it starts afresh).
 */
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';

export interface ChannelListener {
  /** Resolves once the first LISTEN succeeded, or the first attempt failed. */
  ready: Promise<void>;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

export interface ChannelHandlers {
  onNotify(payload: string | undefined): void;
  onListening(): void;
  onLost(err?: Error): void;
}

/** Listens on `channel` (a plain identifier) of `databaseUrl`'s database. */
export function listenToChannel(databaseUrl: string, channel: string, handlers: ChannelHandlers): ChannelListener {
  let client: pg.Client | undefined;
  let closed = false;
  let delayMs = 250;
  let timer: NodeJS.Timeout | undefined;
  let settle!: () => void;
  const ready = new Promise<void>((resolve) => (settle = resolve));

  const lost = (err?: Error) => {
    if (closed) return;
    handlers.onLost(err);
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
      if (msg.channel === channel) handlers.onNotify(msg.payload);
    });
    next.on('error', (err) => lost(err));
    next.on('end', () => client === next && lost());
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      if (closed || client !== next) return;
      delayMs = 250;
      handlers.onListening();
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
      const dead = client;
      client = undefined;
      dead?.removeAllListeners();
      dead?.on('error', () => {});
      await dead?.end().catch(() => {});
    },
  };
}

/** A per-process cache that may serve only while its listener hears every change. */
export interface ListeningCache {
  setListening(listening: boolean): void;
}

/**
 * Listens on `channel` for `cache`: `onNotify` applies each announced change, and the cache is told the
 * listener's state (it must stop trusting itself while a change could go unheard); `onEvent` is told too (the
 * caller logs it).
 */
export function listenForCache(
  databaseUrl: string,
  channel: string,
  cache: ListeningCache,
  onNotify: (payload: string | undefined) => void,
  onEvent: (event: 'listening' | 'lost', err?: Error) => void,
): ChannelListener {
  return listenToChannel(databaseUrl, channel, {
    onNotify,
    onListening: () => {
      cache.setListening(true);
      onEvent('listening');
    },
    onLost: (err) => {
      cache.setListening(false);
      onEvent('lost', err);
    },
  });
}
