/**
 * Keeps the in-memory reference lists (reference-cache.ts) true across API processes (issue 24): PostgreSQL
 * announces every write to the lists' tables on `reference_changed` (migration 20261203200000), and each
 * process drops its lists when told. While the listener is down, and for a change it missed then, the lists'
 * time-to-live bounds how long a change made elsewhere goes unseen: a reconnect does not drop the lists, so a
 * database that comes and goes never turns a revalidation answered from memory (304) into a failed load.
 */
import { type ChannelListener, listenForCache } from './pg-listener';
import type { ReferenceCache } from './reference-cache';

export const REFERENCE_CHANNEL = 'reference_changed';

/** Drops `cache`'s lists on every announced change; `onEvent` is told about drops and reconnects. */
export function listenForReferenceChanges(
  databaseUrl: string,
  cache: ReferenceCache,
  onEvent: (event: 'listening' | 'lost', err?: Error) => void,
): ChannelListener {
  return listenForCache(databaseUrl, REFERENCE_CHANNEL, cache, () => cache.invalidate(), onEvent);
}
