/**
 * A bounded per-process cache that PostgreSQL keeps true across API processes (docs/decisions.md "Many
 * processes, one truth"): the owner drops it on each notification of a change (shared/pg-listener.ts), and it
 * answers nothing while its listener is down, since a change announced then would go unseen. A value loaded
 * before a drop is not kept (`mark`/`set`), so a load that raced a change is served once, never again.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; cachedAt: number }>();
  private generation = 0;
  private listening = false;

  /**
   * @param maxEntries the most values kept (the least recently used leaves first)
   * @param maxAgeMs the longest a value is served without loading it again
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** The current generation: pass it to `set` to store a value whose load begins now. */
  get mark(): number {
    return this.generation;
  }

  /** The value under `key`, or undefined (missing, too old, or the listener is down). */
  get(key: string, now = Date.now()): V | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (now - entry.cachedAt > this.maxAgeMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, loaded from generation `mark`, unless the cache was dropped since or is not listening. */
  set(key: string, value: V, mark: number, now = Date.now()): void {
    if (!this.listening || mark !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { value, cachedAt: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops every value (a change was announced). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Drops the value under `key` (a change to it was announced); loads begun before are not kept either. */
  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Drops every value `match` picks (a change to them was announced); loads begun before are not kept either. */
  deleteWhere(match: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  /** The listener's state; either way the values held are dropped. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  /** Values held (tests, logs). */
  get size(): number {
    return this.entries.size;
  }
}
