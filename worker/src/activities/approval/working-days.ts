/**
 * Deadlines in working days (docs/decisions.md "Approval policies"): Monday to Friday in NETWORK_TIME_ZONE,
 * minus the configured holidays (NETWORK_HOLIDAYS). A stage opened on any day is due `days` working days
 * after that day, at the same wall-clock time, so a stage opened on Friday at 10:00 with one working day is due
 * on Monday at 10:00 (a Saturday opening too). Computed in an activity: the workflow only sleeps until it.
 */
import { addDays, dayIn } from '@portal/contract';

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts of `at` in `timeZone`. */
function partsIn(timeZone: string, at: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/** The offset of `timeZone` from UTC at `at`, in milliseconds (positive east of Greenwich). */
function offsetAt(timeZone: string, at: Date): number {
  const p = partsIn(timeZone, at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of wall-clock time `day` 'YYYY-MM-DD' + `ms` after midnight in `timeZone` (DST: the later reading). */
function instantOf(timeZone: string, day: string, msOfDay: number): Date {
  const wall = Date.parse(`${day}T00:00:00Z`) + msOfDay;
  let guess = new Date(wall - offsetAt(timeZone, new Date(wall)));
  guess = new Date(wall - offsetAt(timeZone, guess));
  return guess;
}

/** True when `day` 'YYYY-MM-DD' is Monday to Friday and not one of `holidays`. */
export function isWorkingDay(day: string, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(day);
}

/**
 * The instant `days` working days after `from` in `timeZone` (see the module), `days` ≥ 0 (0: `from` itself).
 * @throws RangeError for an unknown time zone or a negative count.
 */
export function afterWorkingDays(from: Date, days: number, timeZone: string, holidays: ReadonlySet<string>): Date {
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`not a working-day count: ${days}`);
  if (days === 0) return from;
  const p = partsIn(timeZone, from);
  const msOfDay = ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 + (from.getTime() % 1000);
  let day = dayIn(timeZone, from);
  for (let counted = 0; counted < days;) {
    day = addDays(day, 1);
    if (isWorkingDay(day, holidays)) counted += 1;
  }
  return instantOf(timeZone, day, msOfDay);
}
