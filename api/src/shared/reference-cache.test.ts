import { describe, expect, it } from 'vitest';
import { ReferenceCache, etagMatches } from './reference-cache';

describe('ReferenceCache (000 §4 Reference data loading)', () => {
  it('loads once, serves the same body and ETag until it expires, and shares a running load', async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new ReferenceCache(() => now);
    const load = async () => {
      loads += 1;
      return [{ study: `S${loads}` }];
    };
    const [a, b] = await Promise.all([cache.get('studies', 100, load), cache.get('studies', 100, load)]);
    expect(loads).toBe(1);
    expect(a).toEqual(b);
    expect(a.body).toBe('[{"study":"S1"}]');
    expect(a.etag).toMatch(/^"[\w-]{32}"$/);
    now += 99;
    expect((await cache.get('studies', 100, load)).body).toBe(a.body);
    now += 1;
    const reloaded = await cache.get('studies', 100, load);
    expect(loads).toBe(2);
    expect(reloaded.etag).not.toBe(a.etag);
  });

  it('drops lists by key prefix, and does not keep a load that raced an invalidation', async () => {
    let loads = 0;
    const cache = new ReferenceCache();
    const load = async () => ++loads;
    await cache.get('systems:public', 60_000, load);
    await cache.get('sites', 60_000, load);
    cache.invalidate('systems');
    await cache.get('systems:public', 60_000, load);
    await cache.get('sites', 60_000, load);
    expect(loads).toBe(3);

    let release!: () => void;
    const slow = cache.get('studies', 60_000, () => new Promise((r) => (release = () => r('old'))));
    cache.invalidate();
    release();
    expect((await slow).body).toBe('"old"');
    expect((await cache.get('studies', 60_000, async () => 'new')).body).toBe('"new"');
  });

  it('forgets a failed load', async () => {
    const cache = new ReferenceCache();
    await expect(cache.get('sites', 1000, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.get('sites', 1000, async () => [])).body).toBe('[]');
  });
});

describe("ReferenceCache derived values (the filing's reference sets, issue 24)", () => {
  it('serves a kept value only while the change listener runs, and drops it on any change', async () => {
    const cache = new ReferenceCache();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    // Not listening yet: every call loads, nothing is kept.
    expect(await cache.value('sets', load)).toEqual({ value: { n: 1 }, cached: false });
    expect(await cache.value('sets', load)).toEqual({ value: { n: 2 }, cached: false });
    cache.setListening(true);
    await cache.value('sets', load);
    expect(await cache.value('sets', load)).toEqual({ value: { n: 3 }, cached: true });
    cache.invalidate('studyRoles');
    expect(await cache.value('sets', load)).toEqual({ value: { n: 4 }, cached: false });
    expect((await cache.value('sets', load)).cached).toBe(true);
    // The listener lost: a change may go unannounced, so nothing is served from memory.
    cache.setListening(false);
    expect(await cache.value('sets', load)).toEqual({ value: { n: 5 }, cached: false });
  });

  it('does not keep a value whose load raced a change', async () => {
    const cache = new ReferenceCache();
    cache.setListening(true);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const racing = cache.value('sets', async () => {
      await gate;
      return 'old';
    });
    cache.invalidate();
    release();
    expect(await racing).toEqual({ value: 'old', cached: false });
    expect(await cache.value('sets', async () => 'new')).toEqual({ value: 'new', cached: false });
  });
});

describe('etagMatches', () => {
  it('matches a listed strong or weak validator, or *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(etagMatches(['"b"', '"a"'], '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
