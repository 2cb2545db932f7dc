import { describe, expect, it } from 'vitest';
import {
  ACCESS_DATE_MESSAGES,
  AccessControlSchema,
  AccessDateSettingsSchema,
  accessEndDateProblem,
  addDays,
  dayIn,
  endDayOf,
  endsWithin,
  resolvedEndDay,
  sameAccess,
} from './index';

describe('time-bound access dates (issue 25)', () => {
  it('names the day in the network time zone', () => {
    const at = new Date('2027-03-01T23:30:00Z');
    expect(dayIn('UTC', at)).toBe('2027-03-01');
    expect(dayIn('Europe/Berlin', at)).toBe('2027-03-02');
    expect(dayIn('America/New_York', at)).toBe('2027-03-01');
  });

  it('adds calendar days across months and years', () => {
    expect(addDays('2027-02-27', 2)).toBe('2027-03-01');
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
  });

  it('refuses a past day and one beyond the maximum, inclusive at both ends', () => {
    const opts = { today: '2027-01-10', maxDays: 730 };
    expect(accessEndDateProblem('2027-01-10', opts)).toBeNull();
    expect(accessEndDateProblem('2027-01-09', opts)).toBe(ACCESS_DATE_MESSAGES.past);
    expect(accessEndDateProblem(addDays('2027-01-10', 730), opts)).toBeNull();
    expect(accessEndDateProblem(addDays('2027-01-10', 731), opts)).toBe(ACCESS_DATE_MESSAGES.tooFar(730));
  });

  it('marks an access ending within the notice window, not one already over', () => {
    expect(endsWithin('2027-01-24', '2027-01-10', 14)).toBe(true);
    expect(endsWithin('2027-01-25', '2027-01-10', 14)).toBe(false);
    expect(endsWithin('2027-01-09', '2027-01-10', 14)).toBe(false);
    expect(endsWithin(null, '2027-01-10', 14)).toBe(false);
  });

  it('reads stored dates and keeps a held end date the block does not send', () => {
    expect(endDayOf(new Date('2027-05-06T00:00:00Z'))).toBe('2027-05-06');
    expect(resolvedEndDay(new Date('2027-05-06T00:00:00Z'), undefined)).toBe('2027-05-06');
    expect(resolvedEndDay(new Date('2027-05-06T00:00:00Z'), null)).toBeNull();
    expect(resolvedEndDay(null, '2027-06-01')).toBe('2027-06-01');
  });

  it('parses the block: optional, nullable, a real day', () => {
    const block = { roleName: 'R', systemAccessIds: [1] };
    expect(AccessControlSchema.parse(block).accessEndDate).toBeUndefined();
    expect(AccessControlSchema.parse({ ...block, accessEndDate: null }).accessEndDate).toBeNull();
    expect(AccessControlSchema.safeParse({ ...block, accessEndDate: '2027-02-30' }).success).toBe(false);
    expect(AccessControlSchema.safeParse({ ...block, accessEndDate: '2027-2-3' }).success).toBe(false);
  });

  it('compares the end date in sameAccess; a block without one keeps the held one', () => {
    const held = { roleName: 'R', siteCodes: [], laoIds: [], studyNames: [], systemAccessIds: [1] };
    const dated = { ...held, accessEndDate: new Date('2027-05-06T00:00:00Z') };
    expect(sameAccess(dated, { ...held })).toBe(true);
    expect(sameAccess(dated, { ...held, accessEndDate: '2027-05-06' })).toBe(true);
    expect(sameAccess(dated, { ...held, accessEndDate: '2027-06-06' })).toBe(false);
    expect(sameAccess(dated, { ...held, accessEndDate: null })).toBe(false);
    expect(sameAccess({ ...held, accessEndDate: null }, { ...held, accessEndDate: '2027-06-06' })).toBe(false);
  });

  it('reads the settings with their defaults and refuses an unknown time zone', () => {
    expect(AccessDateSettingsSchema.parse({})).toEqual({
      ACCESS_MAX_DAYS: 730,
      ACCESS_EXPIRY_NOTICE_DAYS: 14,
      NETWORK_TIME_ZONE: 'UTC',
    });
    expect(AccessDateSettingsSchema.safeParse({ NETWORK_TIME_ZONE: 'Mars/Olympus' }).success).toBe(false);
  });
});
