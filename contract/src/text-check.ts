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

/** A place in the walked value: its key in its parent, the parent's place (null at the root). */
interface Place {
  key: string | number;
  parent: Place | null;
}

const pathOf = (place: Place | null): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let p = place; p; p = p.parent) path.push(p.key);
  return path.reverse();
};

/**
 * Walks a parsed JSON value, query or params object (strings, object keys, arrays) for unrecognized
 * characters, up to `limit` findings, in document order. A key holding one is reported at the key's own
 * path (its value is not walked). Iterative, with each place linked to its parent rather than carrying a
 * copied path, so a body nested any number of levels deep neither overflows the call stack (issue 21: 5,000
 * levels answered 500) nor costs more than linear time.
 */
export function findUnrecognizedIn(value: unknown, limit = 20): TextIssue[] {
  const found: TextIssue[] = [];
  type Item = { v: unknown; place: Place | null } | { keyReason: string; place: Place };
  const stack: Item[] = [{ v: value, place: null }];
  while (stack.length && found.length < limit) {
    const item = stack.pop()!;
    if ('keyReason' in item) {
      found.push({ path: pathOf(item.place), reason: item.keyReason });
      continue;
    }
    const { v, place } = item;
    if (typeof v === 'string') {
      const c = findUnrecognizedCharacter(v);
      if (c) found.push({ path: pathOf(place), reason: encodingReason(c) });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], place: { key: i, parent: place } });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const c = findUnrecognizedCharacter(key);
        const at = { key, parent: place };
        stack.push(c ? { keyReason: encodingReason(c), place: at } : { v: child, place: at });
      }
    }
  }
  return found;
}
