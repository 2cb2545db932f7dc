import { describe, expect, it } from 'vitest';
import { countTicks } from './queueTicks';

describe('countTicks (the queue chart’s count axis)', () => {
  it('gives whole numbers from 0 to a round maximum at or above the largest count', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(countTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('keeps at most six ticks', () => {
    for (const max of [4, 9, 11, 49, 51, 99, 101, 999, 12_345]) {
      const ticks = countTicks(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
    }
  });
});
