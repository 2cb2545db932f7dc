import type { z } from 'zod';
import { zodToFieldErrors } from '@portal/contract';
import { unprocessable } from './errors';

/**
 * Parses untrusted input (body, query or params) with a contract schema.
 * @throws HttpError 422 with `fieldErrors` keyed by the spec's field names; nothing has been written.
 */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw unprocessable(zodToFieldErrors(result.error));
  return result.data;
}
