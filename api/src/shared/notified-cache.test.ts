import { describe, expect, it } from 'vitest';
import { NotifiedCache } from './notified-cache';

describe('NotifiedCache', () => {
  it('answers nothing and keeps nothing while its listener is down', () => {
    const cache = new NotifiedCache<number>(10);
    cache.set('a', 1, cache.mark);
    expect(cache.get('a')).toBeUndefined();
    cache.setListening(true);
    cache.set('a', 1, cache.mark);
    expect(cache.get('a')).toBe(1);
    cache.setListening(false);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep a value loaded before a drop', () => {
    const cache = new NotifiedCache<number>(10);
    cache.setListening(true);
    const mark = cache.mark;
    cache.clear();
    cache.set('a', 1, mark);
    expect(cache.get('a')).toBeUndefined();
  });

  it('lets the least recently used value go first, and values older than their age', () => {
    const cache = new NotifiedCache<number>(2, 1_000);
    cache.setListening(true);
    cache.set('a', 1, cache.mark, 0);
    cache.set('b', 2, cache.mark, 0);
    expect(cache.get('a', 10)).toBe(1);
    cache.set('c', 3, cache.mark, 0);
    expect(cache.get('b', 10)).toBeUndefined();
    expect(cache.get('a', 10)).toBe(1);
    expect(cache.get('c', 1_001)).toBeUndefined();
  });

  it('drops one value or those a test picks, and keeps no value loaded before either', () => {
    const cache = new NotifiedCache<number>(10);
    cache.setListening(true);
    cache.set('a', 1, cache.mark);
    cache.set('b', 2, cache.mark);
    cache.set('c', 3, cache.mark);
    const mark = cache.mark;
    cache.delete('a');
    cache.deleteWhere((value) => value === 2);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, 3]);
    cache.set('d', 4, mark);
    expect(cache.get('d')).toBeUndefined();
  });
});
