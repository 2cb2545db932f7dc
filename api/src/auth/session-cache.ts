/**
 * A per-process cache of session look-ups, a NotifiedCache (shared/notified-cache.ts; the look-up was the
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
import type { Permission } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { NotifiedCache } from '../shared/notified-cache';

/** A live session with what the guard needs of its user (auth/guard.ts). */
export interface LiveSession {
  xsrfToken: string;
  passwordChangeRequired: boolean;
  /** Issue 37: until this time only the second step may be called; null when not asked for. */
  secondFactorDueBy: Date | null;
  /** Issue 37: the person must enrol a second factor before anything else. */
  secondFactorEnrolmentDue: boolean;
  /** Issue 37: when the person last proved who they are in this session (the ID token's `auth_time`). */
  authenticatedAt: Date;
  /** Issue 37: how, as RFC 8176 `amr` values ('pwd', then 'otp' after the second step). */
  amr: string[];
  user: {
    id: number;
    username: string;
    firstName: string;
    lastName: string;
    email: string;
    inactive: boolean;
    /** The user's active portal roles' permissions (inactive roles are left out by the query). */
    portalRoles: Array<{ role: { inactive: boolean; permissions: Permission[] } }>;
  };
}

/** A cached look-up: the session as the guard needs it, and its sliding-expiry state. */
export interface CachedSession {
  session: LiveSession;
  lastSeen: Date;
  expiresAt: Date;
}

/** What PostgreSQL announces: one session (by digest), every session of a user, or all sessions. */
export type SessionChange = { session: string } | { user: number } | 'all';

/** Parses a `session_changed` payload (`s:<digest>`, `u:<id>`, `*`). @returns 'all' for anything else. */
export function parseSessionChange(payload: string | undefined): SessionChange {
  if (payload?.startsWith('s:')) return { session: payload.slice(2) };
  if (payload?.startsWith('u:') && /^\d+$/.test(payload.slice(2))) return { user: Number(payload.slice(2)) };
  return 'all';
}

/** Session look-ups keyed by session digest, kept as every notified cache is (shared/notified-cache.ts). */
export class SessionCache extends NotifiedCache<CachedSession> {
  /**
   * @param maxEntries the most sessions kept (the least recently used leaves first)
   * @param maxAgeMs the longest an entry is trusted without reading PostgreSQL again
   */
  constructor(maxEntries = 10_000, maxAgeMs = 60_000) {
    super(maxEntries, maxAgeMs);
  }

  /** Drops what `change` touches. */
  apply(change: SessionChange): void {
    if (change === 'all') this.clear();
    else if ('session' in change) this.delete(change.session);
    else this.deleteWhere((entry) => entry.session.user.id === change.user);
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
