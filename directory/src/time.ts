/** LDAP GeneralizedTime (RFC 4517 §3.3.13) as slapd writes it: YYYYMMDDHHMMSS[.ffffff]Z. */

/** Parses a GeneralizedTime; null when empty or malformed. */
export function parseGeneralizedTime(value: string | undefined | null): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:[.,](\d+))?Z$/.exec(value ?? '');
  if (!m) return null;
  const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Formats a date as a GeneralizedTime with whole seconds. */
export function formatGeneralizedTime(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}
