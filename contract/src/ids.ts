import { z } from 'zod';

/**
 * The one id rule of the portal's records (issue 8): a positive PostgreSQL `integer`, 1..2147483647. Two
 * wrappers apply it: `PathIdSchema` parses an id from its URL segment (digits only), `BodyIdSchema` takes a
 * JSON number as it is (no coercion of `true`, `[1]` or `"1"`). A bad id is the reason key `invalid`, a
 * missing one `required` (000 §7 fieldErrors). Audit rows are the exception: their ids are 64-bit and
 * travel as strings (contract `AuditEventSchema`), so they are not checked here.
 */

/** The largest value of a PostgreSQL `integer` (int4) column. */
export const ID_MAX = 2_147_483_647;

const inRange = (n: number): boolean => n >= 1 && n <= ID_MAX;

/** A record id in a JSON body: an integer number within 1..ID_MAX. */
export const BodyIdSchema = z.number().int().refine(inRange, { message: 'invalid' });

/** A record id in a URL path segment: 1 to 10 digits whose value is within 1..ID_MAX. */
export const PathIdSchema = z
  .string()
  .regex(/^\d{1,10}$/, { message: 'invalid' })
  .transform(Number)
  .pipe(BodyIdSchema);

/**
 * A whole number in a JSON body that reaches an `integer` column (version numbers, positions): strict, within
 * `min`..ID_MAX; anything else is `invalid` (never `required`, which the screens show as 'is required').
 */
export const bodyIntSchema = (min = 0) =>
  z
    .number()
    .int()
    .refine((n) => n >= min && n <= ID_MAX, { message: 'invalid' });

/**
 * A whole number in a query string (page, size): digits only, within `min`..`max`, `fallback` when absent.
 * Query values are always text, so this parses; `true`, `1e3`, `0x10` or a repeated key are `invalid`.
 */
export const queryIntSchema = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, { message: 'invalid' })
    .transform(Number)
    .pipe(z.number().refine((n) => n >= min && n <= max, { message: 'invalid' }))
    .default(fallback);

/** Path params of every `/{id}` call. */
export const IdParamsSchema = z.object({ id: PathIdSchema });
export type IdParams = z.infer<typeof IdParamsSchema>;
