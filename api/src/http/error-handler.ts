/**
 * The one place errors become responses: HttpError as it is, a request part refused by its declared schema
 * as the spec's 422 `{ fieldErrors, globalErrors }` (000 §7; keys as `zodToFieldErrors` writes them, without
 * a `body.`/`params.` prefix), malformed JSON as 422, anything unexpected as a generic message (logged with
 * its stack, never sent).
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { MESSAGES, zodToFieldErrors } from '@portal/contract';
import { SchemaValidationError } from '../plugins/zod-schemas';
import { HttpError, unprocessable } from './errors';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof HttpError) {
      if (err.statusCode === 304) return reply.code(304).send();
      return reply.code(err.statusCode).send(err.body);
    }
    if (err instanceof SchemaValidationError) {
      return reply.code(422).send(unprocessable(zodToFieldErrors(err.zodError)).body);
    }
    if (
      err.statusCode === 400 ||
      err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    ) {
      return reply.code(422).send({ fieldErrors: {}, globalErrors: ['The request body is not valid JSON.'] });
    }
    if (err.statusCode === 413) return reply.code(413).send({ message: 'The request body is too large.' });
    if (err.statusCode === 429) return reply.code(429).send({ message: err.message });
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.signIn.unspecifiedFailure });
  });
}

/** 404 for unknown /rest paths and non-GET requests; otherwise `fallback` (the web app's index.html). */
export function registerNotFoundHandler(app: FastifyInstance, fallback?: (reply: FastifyReply) => FastifyReply): void {
  app.setNotFoundHandler((req, reply) => {
    if (!fallback || req.url.startsWith('/rest/') || req.method !== 'GET') {
      return reply.code(404).send({ message: `No such resource: ${req.method} ${req.url.split('?')[0]}` });
    }
    return fallback(reply);
  });
}
