/** Reading ldapts entries: shared by the directory modules. */
import type { Entry } from 'ldapts';

/** The first value of `attr` as text, '' when the entry has none. */
export function firstValue(entry: Entry, attr: string): string {
  const v = entry[attr];
  if (Array.isArray(v)) return v.length ? String(v[0]) : '';
  return v === undefined ? '' : String(v);
}
