import type { PasswordFailure } from '@portal/contract';
import { ApiError } from '../lib/apiClient';

/**
 * The page-level text of a failed password call (000 §8 Passwords): the server's failureDescription (or
 * responseText), else `fallback` for a refused form (422), else the server's message, else `none`.
 */
export function passwordFailureText(error: unknown, fallback: string, none: string): string {
  if (!(error instanceof ApiError)) return none;
  const body = error.body as PasswordFailure & { message?: unknown };
  if (body.failureDescription) return body.failureDescription;
  if (body.responseText) return body.responseText;
  if (error.status === 422) return fallback;
  return typeof body.message === 'string' ? body.message : none;
}
