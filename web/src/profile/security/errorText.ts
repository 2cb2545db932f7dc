import { ApiError } from '../../lib/apiClient';
import { PasskeyError } from '../../lib/webauthn';

/**
 * The words of a refused call for the person: the API's field and global errors, or its message; a passkey
 * prompt that failed in the browser says why.
 */
export function errorText(err: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (err instanceof PasskeyError) return err.message;
  if (!(err instanceof ApiError)) return fallback;
  const words = [...Object.values(err.fieldErrors).flat(), ...err.globalErrors];
  return words.length ? words.join(' ') : err.message || fallback;
}

/** The API's words for one field of a refused call, if it named that field. */
export function fieldError(err: unknown, field: string): string | undefined {
  return err instanceof ApiError ? err.fieldErrors[field]?.join(' ') : undefined;
}
