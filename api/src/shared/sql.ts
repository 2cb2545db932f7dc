/** Helpers of the hot read paths written as SQL (issue 14): shared by the features' queries. */
import { z } from 'zod';

/**
 * The pattern of a case-insensitive "contains" (`column ILIKE pattern`): `%text%` with the text's own `%`,
 * `_` and `\` matched literally, so a filter is plain text, never a wildcard.
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The answer of `SELECT count(*)::int AS total ...`: exactly one row. */
export const CountRowsSchema = z.array(z.object({ total: z.number().int() })).length(1);
