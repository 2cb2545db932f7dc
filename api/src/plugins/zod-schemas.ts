/**
 * Route schemas are the contract's zod schemas (issue 8). The type provider (fastify-type-provider-zod's
 * `ZodTypeProvider`) types each handler from its route's schemas; the compilers here decide what the schemas
 * do at run time:
 * - params, querystring and body are parsed with their schema (defaults and transforms applied, as
 *   `parseInput` did); a failure is a `SchemaValidationError` carrying the zod error, which the one error
 *   handler answers with the spec's 422 `fieldErrors` (http/error-handler.ts);
 * - response schemas only describe (for the OpenAPI document and the tests): the serializer writes the
 *   payload with `JSON.stringify`, so an answer never fails on a schema mismatch.
 */
import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';
import { appPlugin } from './app-plugin';

/** A request part (`validationContext`: params, querystring or body) that its declared schema refused. */
export class SchemaValidationError extends Error {
  validationContext?: string;
  constructor(readonly zodError: z.ZodError) {
    super('The request does not match its schema.');
  }
}

/** Parses a request part with its zod schema; an absent part is parsed as `{}` (missing fields: 'required'). */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: new SchemaValidationError(result.error) };
  };

/** Response schemas describe only: the payload is written as it is. */
export const describingSerializerCompiler: FastifySerializerCompiler<z.ZodType> = () => (data) => JSON.stringify(data);

/** Sets the two compilers on the app, for every route registered after it. */
export const zodSchemas = appPlugin(async (app: FastifyInstance) => {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(describingSerializerCompiler);
});
