import dayjs from 'dayjs';

/** The spec's placeholder for a missing value (000 §2 Requests History tab). */
export const MISSING = '---';

/** A calendar day 'YYYY-MM-DD' as 'MM/DD/YYYY', the date part of the spec's table format (`formatDateTime`). */
export function formatDay(value: string): string {
  const d = dayjs(value);
  return d.isValid() ? d.format('MM/DD/YYYY') : value;
}

/** A moment as 'MM/DD/YYYY h:mm A', the spec's table format. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return MISSING;
  const d = dayjs(value);
  return d.isValid() ? d.format('MM/DD/YYYY h:mm A') : value;
}

export function orMissing(value: string | null | undefined): string {
  return value && value.trim() ? value : MISSING;
}

export function joinOrMissing(values: readonly (string | null | undefined)[] | null | undefined): string {
  const list = (values ?? []).filter((v): v is string => !!v && v.trim() !== '');
  return list.length ? list.join(', ') : MISSING;
}

/** Numeric-aware compare used by client-side table sorting (000 §9 Table sort). */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return -1;
  if (b === null || b === undefined || b === '') return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** The 'LAOs / AOs' cell: LAO codes then AO site codes, as text (000 §2 Profile Access tab). */
export function sitesText(access: { laoIds?: readonly string[]; siteCodes?: readonly string[] }): string {
  return joinOrMissing([...(access.laoIds ?? []), ...(access.siteCodes ?? [])]);
}
