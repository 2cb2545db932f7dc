/**
 * A per-process cache of session look-ups (issue 14 "Read paths at the speed of SQL": the look-up was the
 * one round trip left between a secure call and its own query). Entries leave the cache when:
 * - PostgreSQL announces a change on `session_changed` (migration 20261126600000: a session deleted or
 *   restricted, a user deactivated or renamed, a user's portal roles changed, a role's permissions changed),
 *   which reaches every API process (session-notify.ts);
 * - this process ends a session itself (sign-out, password change, deactivation), at once, before answering;
 * - they are older than `maxAgeMs` (a bound, not the mechanism);
 * - the listener is down: the cache is then bypassed and emptied until it listens again, so a missed
 *   notification can never keep a session alive.
 * A look-up that began before an invalidation is not stored (the generation check), so a row read before a
 * sign-out cannot be cached after it.
 */
import type { PrismaClient } from '@portal/db';
import type { LiveSession } from './session';

/** A cached look-up: the session as the guard needs it, and its sliding-expiry state. */
export interface CachedSession {
  session: LiveSession;
  lastSeen: Date;
  expiresAt: Date;
  cachedAt: number;
}

/** What PostgreSQL announces: one session (by digest), every session of a user, or all sessions. */
export type SessionChange = { session: string } | { user: number } | 'all';

/** Parses a `session_changed` payload (`s:<digest>`, `u:<id>`, `*`). @returns 'all' for anything else. */
export function parseSessionChange(payload: string | undefined): SessionChange {
  if (payload?.startsWith('s:')) return { session: payload.slice(2) };
  if (payload?.startsWith('u:') && /^\d+$/.test(payload.slice(2))) return { user: Number(payload.slice(2)) };
  return 'all';
}

export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private generation = 0;
  private listening = false;

  /**
   * @param maxEntries the most sessions kept (the oldest inserted leaves first)
   * @param maxAgeMs the longest an entry is trusted without reading PostgreSQL again
   */
  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** The current generation: pass it to `set` to store a look-up begun now. */
  get mark(): number {
    return this.generation;
  }

  /** The cached look-up of session `id`, or undefined (missing, too old, or the cache is bypassed). */
  get(id: string, now = Date.now()): CachedSession | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(id);
    if (entry && now - entry.cachedAt > this.maxAgeMs) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Stores a look-up begun at generation `mark`, unless something was invalidated since or it is bypassed. */
  set(id: string, entry: Omit<CachedSession, 'cachedAt'>, mark: number, now = Date.now()): void {
    if (!this.listening || mark !== this.generation) return;
    this.entries.delete(id);
    this.entries.set(id, { ...entry, cachedAt: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops what `change` touches. */
  apply(change: SessionChange): void {
    this.generation++;
    if (change === 'all') this.entries.clear();
    else if ('session' in change) this.entries.delete(change.session);
    else for (const [id, e] of this.entries) if (e.session.user.id === change.user) this.entries.delete(id);
  }

  /** The listener's state: while false the cache answers nothing and stores nothing. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.apply('all');
  }

  /** Entries held (tests, logs). */
  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<PrismaClient, SessionCache>();

/** Gives `prisma`'s session look-ups a cache (the session plugin does, with its listener). */
export const attachSessionCache = (prisma: PrismaClient, cache: SessionCache): void => void caches.set(prisma, cache);

/** Forgets `prisma`'s cache. */
export const detachSessionCache = (prisma: PrismaClient): void => void caches.delete(prisma);

/** `prisma`'s session cache, if it has one. */
export const sessionCacheOf = (prisma: PrismaClient): SessionCache | undefined => caches.get(prisma);

/** Drops `change` from `prisma`'s cache at once (this process's own session-ending writes, after commit). */
export const forgetSessions = (prisma: PrismaClient, change: SessionChange): void =>
  sessionCacheOf(prisma)?.apply(change);
