import { z } from 'zod';
import { encodingReason, findUnrecognizedCharacter } from './text-check';

/**
 * Text the portal accepts (000 §5 / 001 §5 reason `encoding`; issue 13). PostgreSQL cannot store a NUL
 * character in `text`/`varchar` nor in `jsonb`, and a lone UTF-16 surrogate has no UTF-8 form, so both are
 * refused at the boundary with the spec's `encoding` reason: 'contains unrecognized character' with the
 * character and its 1-based position. Every stored string and every list filter is a `textSchema`; the
 * API's validator also walks every request part for them (api/src/plugins/zod-schemas.ts), so a route
 * written with a plain `z.string()` cannot let one through either.
 *
 * On the wire the reason is one key with its details, `encoding:U+0000:3` (the character as its code point,
 * since neither kind can be shown, and the position counted in characters, not UTF-16 units);
 * `translateFieldErrors` turns it into '{label} contains unrecognized character U+0000 at position 3'.
 */

export * from './text-check';

/** A zod check refusing unrecognized characters with the `encoding` reason (before any trim). */
export const storableText = z.string().superRefine((s, ctx) => {
  const found = findUnrecognizedCharacter(s);
  if (found) ctx.addIssue({ code: 'custom', message: encodingReason(found), input: s });
});

/**
 * A string field of a request: storable (no NUL, no lone surrogate), trimmed unless `trim: false`
 * (passwords), at most `max` characters, and when `min` is 1 not empty (`required`).
 */
export function textSchema(max: number, opts: { min?: number; trim?: boolean } = {}) {
  const base = opts.trim === false ? storableText : storableText.trim();
  const bounded = base.max(max);
  return opts.min ? bounded.min(opts.min) : bounded;
}
