/**
 * Route-schema pieces the contract does not hold, shared by every feature: the page envelope around a row
 * schema (000 §3 Page info), the empty object several calls answer, the body of calls that take none, and
 * the error bodies (000 §7). Response schemas describe only (plugins/zod-schemas.ts).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBodySchema } from '@portal/contract';

/** 000 §3 Page info around `row`. */
export const pageSchema = <T extends z.ZodType>(row: T) =>
  z.object({
    content: z.array(row),
    totalElements: z.number().int(),
    numberOfElements: z.number().int(),
    size: z.number().int(),
    number: z.number().int(),
    totalPages: z.number().int(),
    first: z.boolean(),
    last: z.boolean(),
    sort: z.string(),
  });

/** `{}`: the answer of calls that only act. */
export const EmptyObjectSchema = z.object({});

/** The body of a POST or PUT that takes none: nothing, or an object whose fields are ignored. */
export const NoBodySchema = z.looseObject({}).optional();

/** `{ message }` of 401, 403, 404, 409 and 503 answers. */
export const MessageSchema = z.object({ message: z.string() });

/** The error answers every /rest/secure call may give: 401, 403 (message) and 422 (fieldErrors). */
export const SECURE_ERRORS = { 401: MessageSchema, 403: MessageSchema, 422: ErrorBodySchema } as const;

/** The app a feature plugin receives: routes typed from their zod schemas (fastify-type-provider-zod). */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];
