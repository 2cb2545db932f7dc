import { describe, expect, it } from 'vitest';
import { afterWorkingDays, isWorkingDay } from './working-days';

const none = new Set<string>();

describe('afterWorkingDays', () => {
  it('skips the weekend: Friday 10:00 plus one working day is Monday 10:00', () => {
    expect(afterWorkingDays(new Date('2026-12-04T10:00:00Z'), 1, 'UTC', none).toISOString()).toBe(
      '2026-12-07T10:00:00.000Z',
    );
  });

  it('counts from the next working day when opened on a Saturday', () => {
    expect(afterWorkingDays(new Date('2026-12-05T09:30:00Z'), 1, 'UTC', none).toISOString()).toBe(
      '2026-12-07T09:30:00.000Z',
    );
  });

  it('skips configured holidays', () => {
    const holidays = new Set(['2026-12-25', '2026-12-28']);
    // Thursday 24th + 2 working days: 25th (holiday), 26/27 weekend, 28th holiday, 29th, 30th.
    expect(afterWorkingDays(new Date('2026-12-24T08:00:00Z'), 2, 'UTC', holidays).toISOString()).toBe(
      '2026-12-30T08:00:00.000Z',
    );
  });

  it('keeps the wall-clock time across a daylight-saving change in the network time zone', () => {
    // Friday 2027-03-26 09:00 in Berlin (CET, UTC+1); Monday 29th is in CEST (UTC+2).
    const due = afterWorkingDays(new Date('2027-03-26T08:00:00Z'), 1, 'Europe/Berlin', none);
    expect(due.toISOString()).toBe('2027-03-29T07:00:00.000Z');
  });

  it('uses the day in the network time zone, not in UTC', () => {
    // Friday 23:30 UTC is already Saturday in Tokyo: one working day later is Monday 08:30 Tokyo.
    const due = afterWorkingDays(new Date('2026-12-04T23:30:00Z'), 1, 'Asia/Tokyo', none);
    expect(due.toISOString()).toBe('2026-12-06T23:30:00.000Z');
  });

  it('answers the same instant for zero days and refuses a negative count', () => {
    const at = new Date('2026-12-02T12:00:00Z');
    expect(afterWorkingDays(at, 0, 'UTC', none)).toBe(at);
    expect(() => afterWorkingDays(at, -1, 'UTC', none)).toThrow(RangeError);
  });
});

describe('isWorkingDay', () => {
  it('is Monday to Friday minus holidays', () => {
    expect(['2026-11-30', '2026-12-04', '2026-12-05', '2026-12-06'].map((d) => isWorkingDay(d, none))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(isWorkingDay('2026-12-25', new Set(['2026-12-25']))).toBe(false);
  });
});
