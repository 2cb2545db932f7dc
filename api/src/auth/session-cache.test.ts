import { describe, expect, it } from 'vitest';
import { type LiveSession, parseSessionChange, SessionCache } from './session-cache';

const session = (userId: number): LiveSession => ({
  xsrfToken: 'x',
  passwordChangeRequired: false,
  secondFactorDueBy: null,
  secondFactorEnrolmentDue: false,
  authenticatedAt: new Date(0),
  amr: ['pwd'],
  user: {
    id: userId,
    username: `u${userId}`,
    firstName: 'A',
    lastName: 'B',
    email: 'a@b.c',
    inactive: false,
    portalRoles: [],
  },
});
const entry = (userId: number) => ({ session: session(userId), lastSeen: new Date(0), expiresAt: new Date(1e13) });

const listening = (maxEntries?: number, maxAgeMs?: number) => {
  const cache = new SessionCache(maxEntries, maxAgeMs);
  cache.setListening(true);
  return cache;
};

describe('SessionCache', () => {
  it('serves and stores nothing until its listener listens, and empties when the listener drops', () => {
    const cache = new SessionCache();
    cache.set('a', entry(1), cache.mark);
    expect(cache.get('a')).toBeUndefined();
    cache.setListening(true);
    cache.set('a', entry(1), cache.mark);
    expect(cache.get('a')?.session.user.id).toBe(1);
    cache.setListening(false);
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not store a look-up that began before an invalidation', () => {
    const cache = listening();
    const mark = cache.mark;
    cache.apply({ session: 'other' });
    cache.set('a', entry(1), mark);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops one session, every session of a user, or all', () => {
    const cache = listening();
    cache.set('a', entry(1), cache.mark);
    cache.set('b', entry(1), cache.mark);
    cache.set('c', entry(2), cache.mark);
    cache.set('d', entry(3), cache.mark);
    cache.apply({ session: 'd' });
    expect(cache.get('d')).toBeUndefined();
    cache.apply({ user: 1 });
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, undefined]);
    expect(cache.get('c')?.session.user.id).toBe(2);
    cache.apply('all');
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries (the least recently used leaves) and trusts an entry for at most maxAgeMs', () => {
    const cache = listening(2, 1000);
    cache.set('a', entry(1), cache.mark, 0);
    cache.set('b', entry(2), cache.mark, 0);
    cache.set('c', entry(3), cache.mark, 0);
    expect(cache.get('a', 10)).toBeUndefined();
    expect(cache.get('c', 10)?.session.user.id).toBe(3);
    expect(cache.get('b', 1001)).toBeUndefined();
  });

  it('reads the notification payloads; anything unknown drops everything', () => {
    expect(parseSessionChange('s:abc')).toEqual({ session: 'abc' });
    expect(parseSessionChange('u:42')).toEqual({ user: 42 });
    expect(parseSessionChange('*')).toBe('all');
    expect(parseSessionChange('u:x')).toBe('all');
    expect(parseSessionChange(undefined)).toBe('all');
  });
});
