/**
 * The zod-free part of text checking (split from text.ts so the browser's sign-in page loads no zod,
 * issue 14): finding the characters PostgreSQL cannot store and the `encoding` reason's key and text.
 */

/** A NUL, or a high surrogate without its low half, or a low surrogate without its high half. */
const UNRECOGNIZED = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnrecognizedCharacter {
  /** The character as its code point, `U+0000`. */
  codePoint: string;
  /** 1-based position in characters (a surrogate pair counts once). */
  position: number;
}

/** The first character of `s` PostgreSQL cannot store, or null. */
export function findUnrecognizedCharacter(s: string): UnrecognizedCharacter | null {
  const match = UNRECOGNIZED.exec(s);
  if (!match) return null;
  const unit = match[0].charCodeAt(0);
  return {
    codePoint: `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`,
    position: [...s.slice(0, match.index)].length + 1,
  };
}

/** The wire reason key of an unrecognized character: `encoding:U+0000:3`. */
export const encodingReason = (c: UnrecognizedCharacter): string => `encoding:${c.codePoint}:${c.position}`;

/** The 000 §5 reason text of an `encoding:...` key, or null for any other key. */
export function encodingReasonText(key: string): string | null {
  const m = /^encoding(?::(U\+[0-9A-F]{4,6}):(\d+))?$/.exec(key);
  if (!m) return null;
  return m[1] ? `contains unrecognized character ${m[1]} at position ${m[2]}` : 'contains unrecognized character';
}

/** Where a value holds an unrecognized character: its path and the `encoding:...` reason key. */
export interface TextIssue {
  path: Array<string | number>;
  reason: string;
}

/**
 * Walks a parsed JSON value, query or params object (strings, object keys, arrays) for unrecognized
 * characters, up to `limit` findings. A key holding one is reported at the key's own path.
 */
export function findUnrecognizedIn(value: unknown, limit = 20): TextIssue[] {
  const found: TextIssue[] = [];
  const walk = (v: unknown, path: Array<string | number>): void => {
    if (found.length >= limit) return;
    if (typeof v === 'string') {
      const c = findUnrecognizedCharacter(v);
      if (c) found.push({ path, reason: encodingReason(c) });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const c = findUnrecognizedCharacter(key);
        if (c) found.push({ path: [...path, key], reason: encodingReason(c) });
        else walk(item, [...path, key]);
      }
    }
  };
  walk(value, []);
  return found;
}
