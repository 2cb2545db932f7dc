import type { ReviewProcessing } from '@portal/contract';
import type { ApiResponse } from '../../../lib/apiClient';

/**
 * What a review save came to, for every request kind (REQUEST-LIFECYCLE rule 6): `saved` with the request as
 * stored (200), `processing` when the save was accepted but had not finished within the API's deadline (202
 * with the contract's `ReviewProcessing` body; retrying with the same attempt key is safe and joins it),
 * `unchanged` when there was nothing to save (304). Refusals (409 busy, 422 stale or invalid, 403) reject with
 * the ApiError instead.
 */
export type ReviewOutcome<T> =
  { kind: 'saved'; request: T } | { kind: 'processing'; body: ReviewProcessing | undefined } | { kind: 'unchanged' };

/** Reads a review save's answer by its status code. */
export function reviewOutcome<T>(response: ApiResponse<T | ReviewProcessing>): ReviewOutcome<T> {
  if (response.status === 304) return { kind: 'unchanged' };
  if (response.status === 202) return { kind: 'processing', body: response.data as ReviewProcessing | undefined };
  return { kind: 'saved', request: response.data as T };
}
