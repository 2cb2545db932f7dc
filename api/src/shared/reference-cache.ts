/**
 * Reference data served from memory with a strong ETag (000 §4 Reference data loading, §7 Reference data):
 * a list is read from PostgreSQL once, serialised, hashed and kept for its time-to-live, so repeated loads
 * and revalidations (`If-None-Match` answered 304) cost no query. Configuration changes made through this
 * API invalidate the lists they affect at once; PostgreSQL's `reference_changed` notifications drop them in
 * every other API process (reference-notify.ts); the time-to-live bounds how long a process whose listener is
 * down may serve a list changed elsewhere.
 */
import { createHash } from 'node:crypto';
import { NotifiedCache } from './notified-cache';

export interface CachedList {
  etag: string;
  body: string;
}

interface Entry extends CachedList {
  expiresAt: number;
}

/** How long a list may be served without reading the database again. */
export const REFERENCE_TTL_MS = {
  /** Sites, studies, relations, countries, states: changed by data loads, not by this API. */
  static: 5 * 60_000,
  /** Study roles and systems: changed through the configuration calls (which invalidate at once). */
  configured: 60_000,
} as const;

export class ReferenceCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private generation = 0;
  /**
   * Values the server derives from the lists for its own checks (the filing's reference sets): unlike the
   * lists, served only while the change listener runs, since a check must not pass on a change it missed.
   */
  private readonly derived = new NotifiedCache<unknown>(16, REFERENCE_TTL_MS.configured);

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The value under `key`, from memory while the change listener runs, otherwise loaded with `load` (and kept
   * when no change was announced meanwhile). @returns the value and whether it came from memory.
   */
  async value<T>(key: string, load: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
    const hit = this.derived.get(key) as T | undefined;
    if (hit !== undefined) return { value: hit, cached: true };
    const mark = this.derived.mark;
    const value = await load();
    this.derived.set(key, value, mark);
    return { value, cached: false };
  }

  /** The change listener's state (reference-notify.ts): derived values are served only while it listens. */
  setListening(listening: boolean): void {
    this.derived.setListening(listening);
  }

  /** The list under `key`, loading it with `load` when missing or expired (concurrent callers share one load). */
  async get(key: string, ttlMs: number, load: () => Promise<unknown>): Promise<CachedList> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit;
    const running = this.loading.get(key);
    if (running) return running;
    const generation = this.generation;
    const promise = (async () => {
      const body = JSON.stringify(await load());
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      const entry = { etag, body, expiresAt: this.now() + ttlMs };
      // A load that raced an invalidation may hold old rows: serve it once, but do not keep it.
      if (generation === this.generation) this.entries.set(key, entry);
      return entry;
    })();
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      this.loading.delete(key);
    }
  }

  /** Drops every list whose key starts with one of `prefixes` (all lists when none are given), and every derived value. */
  invalidate(...prefixes: string[]): void {
    this.generation += 1;
    this.derived.clear();
    for (const key of [...this.entries.keys()]) {
      if (prefixes.length === 0 || prefixes.some((p) => key.startsWith(p))) this.entries.delete(key);
    }
    this.loading.clear();
  }
}

/** True when an If-None-Match header names `etag` (or is `*`); weak validators compare by their opaque part. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

const caches = new WeakMap<object, ReferenceCache>();

/** The cache of one database (keyed by its Prisma client), shared by every server built on that client. */
export function referenceCacheFor(prisma: object): ReferenceCache {
  let cache = caches.get(prisma);
  if (!cache) caches.set(prisma, (cache = new ReferenceCache()));
  return cache;
}

/** Cache keys of the lists configuration changes affect. */
export const CONFIGURED_LISTS = { studyRoles: 'studyRoles', systems: 'systems' } as const;
