import { useCallback, useRef } from 'react';

/**
 * The browser's key of one review save attempt (REQUEST-LIFECYCLE rule 6; contract `ReviewAttemptKeySchema`).
 * `crypto.randomUUID` needs a secure context; an http deployment on another host falls back to 16 random
 * bytes in hex, which the schema accepts as well.
 */
export function newAttemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Attempt keys for one review form. `keyFor(values)` hands out a new key for every new attempt, and the same
 * key again when the same values are sent after an answer that left the attempt open (`keepOpen`: a 202 or a
 * lost answer), so the retry joins the first save instead of being a second one. Any other answer closes the
 * attempt (`close`).
 */
export function useAttemptKeys<V>() {
  const open = useRef<{ values: string; key: string } | null>(null);
  const keyFor = useCallback((values: V) => {
    const json = JSON.stringify(values);
    if (open.current?.values === json) return open.current.key;
    return newAttemptKey();
  }, []);
  const keepOpen = useCallback((values: V, key: string) => {
    open.current = { values: JSON.stringify(values), key };
  }, []);
  const close = useCallback(() => {
    open.current = null;
  }, []);
  return { keyFor, keepOpen, close };
}
