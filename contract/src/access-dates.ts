/**
 * Time-bound access (issue 25 "Time-bound access"): a role block's optional end date `accessEndDate`, a
 * calendar day 'YYYY-MM-DD', inclusive: the access ends at the end of that day in the network's time zone
 * (NETWORK_TIME_ZONE). At most ACCESS_MAX_DAYS ahead; ACCESS_EXPIRY_NOTICE_DAYS before it the person gets one
 * notice. On the wire an absent `accessEndDate` leaves the held end date as it is (old clients never send it),
 * `null` means no end date. Pure: the API, the worker and the browser share it.
 */
import { z } from 'zod';

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 is `invalid`). */
export const CalendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalid' })
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
  }, 'invalid');

/** A role block's end date as sent: a day, null (no end date) or absent (the held end date stays). */
export const AccessEndDateSchema = CalendarDaySchema.nullable().optional();

export const ACCESS_DATE_DEFAULTS = { maxDays: 730, noticeDays: 14, timeZone: 'UTC' } as const;

/** True when `timeZone` is an IANA zone this runtime knows ('UTC', 'Europe/Berlin'). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The configuration of time-bound access (API and worker), from the environment. */
export const AccessDateSettingsSchema = z.object({
  ACCESS_MAX_DAYS: z.coerce.number().int().min(1).max(36_500).default(ACCESS_DATE_DEFAULTS.maxDays),
  ACCESS_EXPIRY_NOTICE_DAYS: z.coerce.number().int().min(0).max(365).default(ACCESS_DATE_DEFAULTS.noticeDays),
  NETWORK_TIME_ZONE: z
    .string()
    .min(1)
    .refine(isTimeZone, 'must be an IANA time zone such as "UTC" or "Europe/Berlin"')
    .default(ACCESS_DATE_DEFAULTS.timeZone),
});
export type AccessDateSettings = z.infer<typeof AccessDateSettingsSchema>;

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day `at` falls on in `timeZone`, 'YYYY-MM-DD'. @throws RangeError for an unknown time zone. */
export function dayIn(timeZone: string, at: Date): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** `day` plus `n` calendar days (n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A stored end date (PostgreSQL `date`, read as UTC midnight) or a sent one, as 'YYYY-MM-DD'; null for none. */
export function endDayOf(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  return typeof value === 'string' ? value : value.toISOString().slice(0, 10);
}

/** The texts of the end date's field errors (not in the spec: issue 25). */
export const ACCESS_DATE_MESSAGES = {
  past: 'The end date cannot be in the past.',
  tooFar: (maxDays: number) => `The end date can be at most ${maxDays} days ahead.`,
  endsSoon: 'Ends soon',
  noEndDate: 'No end date',
  label: 'Access end date',
  description: 'The access ends at the end of this day.',
} as const;

/**
 * The field error of an end date a writer sets, against `today` (in the network's time zone): in the past,
 * or more than `maxDays` ahead; null when it is acceptable.
 */
export function accessEndDateProblem(day: string, opts: { today: string; maxDays: number }): string | null {
  if (day < opts.today) return ACCESS_DATE_MESSAGES.past;
  if (day > addDays(opts.today, opts.maxDays)) return ACCESS_DATE_MESSAGES.tooFar(opts.maxDays);
  return null;
}

/** True when an access ending on `endDay` (inclusive) is within `noticeDays` of `today` and not yet over. */
export function endsWithin(endDay: string | null, today: string, noticeDays: number): boolean {
  return endDay !== null && endDay >= today && endDay <= addDays(today, noticeDays);
}

/**
 * The end date a block leaves on a held record: its own when it sends one (null: none), else the held one
 * (an absent `accessEndDate` changes nothing).
 */
export function resolvedEndDay(
  held: Date | string | null | undefined,
  sent: Date | string | null | undefined,
): string | null {
  return sent === undefined ? endDayOf(held) : endDayOf(sent);
}
