/**
 * What the routes of the request kinds share (001 §7; REQUEST-LIFECYCLE rule 6): the route options of filing
 * one's own request, the config of a reviewer's save, the answers of reading one request and of a review, and
 * the 202 of a save still being processed. Access change, profile change and registration supply their
 * request's row schema.
 */
import type { z } from 'zod';
import { ErrorBodySchema, ReviewProcessingSchema } from '@portal/contract';
import { MessageSchema, SECURE_ERRORS } from '../http/route-schemas';

/** A reviewer's save: WRITE_USERS; it writes. */
export const REVIEW_CONFIG = { permission: 'WRITE_USERS', destructive: true } as const;

/**
 * The route options of filing one's own request (any signed-in user; it writes): the body, and the answers:
 * the request (200), 404 (an unknown name in the body), 503 (a service down).
 */
export const filingRoute = <B extends z.ZodType, T extends z.ZodType>(body: B, row: T) => ({
  config: { permission: 'USER', destructive: true } as const,
  schema: { body, response: { 200: row, 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS } },
});

/** The answers of reading one request: the request (200), or 404 (unknown, or not the caller's to read). */
export const readAnswers = <T extends z.ZodType>(row: T) => ({ 200: row, 404: MessageSchema, ...SECURE_ERRORS });

/**
 * The answers of a reviewer's save: the fresh request (200), still processing (202), 404, 409 (a stale
 * version or a status the request cannot move to) and 503 (a service down).
 */
export const reviewAnswers = <T extends z.ZodType>(row: T) => ({
  200: row,
  202: ReviewProcessingSchema,
  404: MessageSchema,
  409: ErrorBodySchema,
  503: MessageSchema,
  ...SECURE_ERRORS,
});

/** A review's answer, with 202 when the save is still being processed (rule 6). */
export function processing<T extends object>(reply: { code(n: number): unknown }, answer: T): T {
  if ('status' in answer && answer.status === 'PROCESSING') reply.code(202);
  return answer;
}
