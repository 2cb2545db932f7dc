import { describe, expect, it } from 'vitest';
import { deepPageWindow, orderByText } from './deep-page';

describe('deepPageWindow', () => {
  it('reads from the start while the total is unknown or the page is in the first half', () => {
    expect(deepPageWindow(1, 25)).toEqual({ offset: 0, limit: 25, reversed: false });
    expect(deepPageWindow(3, 25, 1000)).toEqual({ offset: 50, limit: 25, reversed: false });
  });

  it('reads a page past the middle from the end: the last page skips nothing', () => {
    // 1,000,005 rows: the last page (40,001) holds the 5 oldest rows.
    expect(deepPageWindow(40_001, 25, 1_000_005)).toEqual({ offset: 0, limit: 5, reversed: true });
    expect(deepPageWindow(40_000, 25, 1_000_005)).toEqual({ offset: 5, limit: 25, reversed: true });
  });

  it('reads nothing past the end', () => {
    expect(deepPageWindow(5, 25, 100).limit).toBe(0);
  });
});

describe('orderByText', () => {
  it('flips every key and where its nulls go', () => {
    const keys = [
      { column: 'q."sysdat"', dir: 'desc' as const, nulls: 'last' as const },
      { column: 'q."id"', dir: 'desc' as const },
    ];
    expect(orderByText(keys)).toBe('q."sysdat" DESC NULLS LAST, q."id" DESC');
    expect(orderByText(keys, true)).toBe('q."sysdat" ASC NULLS FIRST, q."id" ASC NULLS LAST');
  });
});
