/**
 * A TCP hop in front of a real dependency (PostgreSQL, slapd, SMTP) that a fault test can break both ways
 * (issue 21): `refuse()` closes every open connection and resets every new one (the dependency stopped,
 * its port closed), `hang()` keeps connections open but forwards nothing in either direction (the process
 * frozen, as with SIGSTOP), `dropAnswers()` forwards each request but destroys the client's connection when the
 * dependency answers, so the answer never arrives (issue 41: the target committed, the client never heard back),
 * `heal()` forwards again. The product under test is pointed at the proxy's port
 * instead of the dependency's, so the fault goes through its own paths, not through a test double.
 */
import net from 'node:net';

/** The start of an HTTP request line at the start of a chunk. */
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//;

export type FaultMode = 'forward' | 'refuse' | 'hang' | 'drop-answers';

/** The two ways a dependency fails (issue 21): stopped (its port closed) and frozen (SIGSTOP). */
export const FAULTS = ['refuse', 'hang'] as const;
export type Fault = (typeof FAULTS)[number];

/** How a test names a fault: 'stopped' or 'frozen'. */
export const faultName = (fault: Fault): string => (fault === 'refuse' ? 'stopped' : 'frozen');

export interface FaultProxy {
  /** The loopback port to give the product instead of the dependency's. */
  port: number;
  mode(): FaultMode;
  /**
   * Bytes held while hanging, both directions (a request or answer stuck in the frozen dependency): a test
   * polls it to know the product has reached the frozen dependency.
   */
  held(): number;
  refuse(): void;
  hang(): void;
  /**
   * While hanging: connections opened from now on are forwarded, those open now stay frozen with what they
   * hold (a dependency wedged on the requests it already took while it answers new ones), until heal().
   */
  answerNewConnections(): void;
  /**
   * Requests still reach the dependency, but the first bytes of each answer end that connection instead (the
   * client connection destroyed, the upstream one too, the answer dropped): the dependency did the work and the
   * client sees a connection closed before any reply. After `count` dropped answers (default: no limit) the
   * proxy forwards again by itself, so a retry that follows at once gets through; heal() ends it earlier.
   * `requestsStartingWith` (HTTP, e.g. 'POST '): only the answers to requests whose request line starts so are
   * dropped, the others forwarded (a client that looks up before it creates loses only the create's answer).
   */
  dropAnswers(count?: number, requestsStartingWith?: string): void;
  /** How many answers dropAnswers() has dropped since the proxy started. */
  dropped(): number;
  /** refuse() or hang(). */
  fail(fault: Fault): void;
  heal(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free loopback port forwarding to `target`.
 * @throws Error when the port cannot be bound.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'forward';
  /** Whether connections opened while hanging are forwarded (answerNewConnections). */
  let answeringNew = false;
  /** dropAnswers(): answers still to drop, and how many were dropped. */
  let toDrop = 0;
  let dropped = 0;
  let dropOnly: string | undefined;
  /** A client connection and its upstream; `frozen` holds both directions while the proxy hangs. */
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; frozen: boolean; dropNext?: boolean }>();
  /** Data held while hanging, per direction, released in order by heal(). */
  const held = new Map<net.Socket, Buffer[]>();

  const relay = (
    from: net.Socket,
    to: net.Socket,
    pair: { client: net.Socket; frozen: boolean; dropNext?: boolean },
  ) => {
    from.on('data', (chunk: Buffer) => {
      // A request line starts this chunk: whether its answer is one to drop.
      if (to !== pair.client && REQUEST_LINE.test(chunk.toString('latin1', 0, 16))) {
        pair.dropNext = !dropOnly || chunk.toString('latin1', 0, dropOnly.length) === dropOnly;
      }
      if (mode === 'hang' && pair.frozen) held.set(to, [...(held.get(to) ?? []), chunk]);
      else if (mode === 'drop-answers' && to === pair.client && pair.dropNext !== false) dropAnswer(from, to);
      else if (!to.destroyed) to.write(chunk);
    });
  };
  /** The answer's first bytes came from `upstream`: neither they nor the rest reach `client`. */
  const dropAnswer = (upstream: net.Socket, client: net.Socket) => {
    if (client.destroyed) return;
    dropped += 1;
    toDrop -= 1;
    if (toDrop <= 0) mode = 'forward';
    client.destroy();
    upstream.destroy();
  };

  const server = net.createServer((client) => {
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream, frozen: !answeringNew };
    pairs.add(pair);
    relay(client, upstream, pair);
    relay(upstream, client, pair);
    const end = () => {
      pairs.delete(pair);
      held.delete(client);
      held.delete(upstream);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  const proxy: FaultProxy = {
    port,
    mode: () => mode,
    held: () => [...held.values()].flat().reduce((n, chunk) => n + chunk.length, 0),
    refuse() {
      mode = 'refuse';
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      held.clear();
    },
    hang() {
      mode = 'hang';
      answeringNew = false;
      for (const pair of pairs) pair.frozen = true;
    },
    answerNewConnections() {
      answeringNew = true;
    },
    dropAnswers(count = Number.POSITIVE_INFINITY, requestsStartingWith?: string) {
      if (!(count > 0)) throw new Error(`dropAnswers: count must be positive (got ${count})`);
      proxy.heal();
      mode = 'drop-answers';
      toDrop = count;
      dropOnly = requestsStartingWith;
    },
    dropped: () => dropped,
    fail(fault) {
      if (fault === 'refuse') proxy.refuse();
      else proxy.hang();
    },
    heal() {
      mode = 'forward';
      answeringNew = false;
      toDrop = 0;
      dropOnly = undefined;
      for (const [to, chunks] of held) if (!to.destroyed) for (const c of chunks) to.write(c);
      held.clear();
    },
    async close() {
      proxy.refuse();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

/** `url` (postgresql://, ldap://, smtp://…) with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: FaultProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

/**
 * A proxy in front of the dependency `url` names (its host and port). @returns the proxy and `url` through it.
 */
export async function proxyFor(url: string): Promise<{ proxy: FaultProxy; url: string }> {
  const u = new URL(url);
  const proxy = await startFaultProxy({ host: u.hostname, port: Number(u.port) });
  return { proxy, url: viaProxy(url, proxy) };
}
