/**
 * Route schemas are the contract's zod schemas (issue 8). The type provider (fastify-type-provider-zod's
 * `ZodTypeProvider`) types each handler from its route's schemas; the compilers here decide what the schemas
 * do at run time:
 * - params, querystring and body are parsed with their schema (defaults and transforms applied, as
 *   `parseInput` did) and walked for unrecognized characters (contract `findUnrecognizedIn`); a failure is a `SchemaValidationError` carrying the zod error, which the one error
 *   handler answers with the spec's 422 `fieldErrors` (http/error-handler.ts);
 * - response schemas only describe (for the OpenAPI document and the tests): the serializer writes the
 *   payload with `JSON.stringify`, so an answer never fails on a schema mismatch.
 */
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { ZodError, type z } from 'zod';
import { findUnrecognizedIn } from '@portal/contract';
import { appPlugin } from './app-plugin';

/** A request part (`validationContext`: params, querystring or body) that its declared schema refused. */
export class SchemaValidationError extends Error {
  validationContext?: string;
  constructor(readonly zodError: z.ZodError) {
    super('The request does not match its schema.');
  }
}

/**
 * Parses a request part with its zod schema; an absent part is parsed as `{}` (missing fields: 'required').
 * Every string and key of the part is also checked for characters PostgreSQL cannot store (NUL, lone
 * surrogates: the `encoding` reason, issue 13), whatever the schema says, so no route can pass one on.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const input = data ?? {};
    const result = schema.safeParse(input);
    const text = findUnrecognizedIn(input);
    if (result.success && text.length === 0) return { value: result.data };
    const issues: z.core.$ZodIssue[] = [
      ...text.map((t) => ({ code: 'custom' as const, path: t.path, message: t.reason, input: undefined })),
      ...(result.success ? [] : result.error.issues),
    ];
    return { error: new SchemaValidationError(new ZodError(issues)) };
  };

/** Response schemas describe only: the payload is written as it is. */
export const describingSerializerCompiler: FastifySerializerCompiler<z.ZodType> = () => (data) => JSON.stringify(data);

/**
 * Refuses a body sent as JSON `null` (422, 'required'). Fastify hands an absent body and a `null` one to the
 * validator alike (as null), which reads both as `{}`; only here, before validation, are they told apart
 * (an absent body is still undefined). Without it `null` was a body of defaults (issue 21: it erased the
 * caller's Details fields).
 */
async function refuseNullBody(req: FastifyRequest): Promise<void> {
  if (req.body !== null) return;
  const issue = { code: 'invalid_type' as const, expected: 'object' as const, path: [], input: null, message: '' };
  const error = new SchemaValidationError(new ZodError([issue]));
  error.validationContext = 'body';
  throw error;
}

/** Sets the two compilers on the app, for every route registered after it, and refuses `null` bodies. */
export const zodSchemas = appPlugin(async (app: FastifyInstance) => {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(describingSerializerCompiler);
  app.addHook('preValidation', refuseNullBody);
});
