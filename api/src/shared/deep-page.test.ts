import { describe, expect, it } from 'vitest';
import { MAX_WALK, deepPageWindow, orderByText, walkLength } from './deep-page';

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

describe('walkLength', () => {
  it("reads four times the rows the window needs at the filter's density", () => {
    // 1 % of 5,000,000 rows: the first 25 matches lie about 2,500 rows in.
    expect(walkLength({ offset: 0, limit: 25, reversed: false }, 50_000, 5_000_000)).toBe(10_000);
    // Every row matches: the window itself, times four, never more than the table.
    expect(walkLength({ offset: 0, limit: 25, reversed: false }, 60, 60)).toBe(60);
  });

  it('collects the matches instead when the walk would be long or nothing matches', () => {
    expect(walkLength({ offset: 0, limit: 25, reversed: false }, 500, 5_000_000)).toBeNull();
    expect(walkLength({ offset: 100, limit: 25, reversed: false }, 50_000, 5_000_000)).toBeNull();
    expect(walkLength({ offset: 0, limit: 25, reversed: false }, 0, 5_000_000)).toBeNull();
    expect(walkLength({ offset: 0, limit: 0, reversed: true }, 10, 5_000_000)).toBeNull();
    expect(walkLength({ offset: 0, limit: 25, reversed: false }, 50_000, 5_000_000)).toBeLessThanOrEqual(MAX_WALK);
  });
});
