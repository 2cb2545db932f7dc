/**
 * HTTP errors with the spec's bodies (000 §7, §8): 422 `{ fieldErrors, globalErrors }`, 401 'Please sign in',
 * 403 'You are not authorized to view this page', 404 with a message, 304 with no body.
 */
import type { FieldErrors } from '@portal/contract';
import { MESSAGES } from '@portal/contract';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown> | undefined,
  ) {
    super(typeof body?.message === 'string' ? body.message : `HTTP ${statusCode}`);
  }
}

export const unprocessable = (fieldErrors: FieldErrors, globalErrors: string[] = []): HttpError =>
  new HttpError(422, { fieldErrors, globalErrors });
export const unauthenticated = (): HttpError => new HttpError(401, { message: MESSAGES.signIn.pleaseSignIn });
export const forbidden = (message: string = MESSAGES.signIn.notAuthorized): HttpError =>
  new HttpError(403, { message });
export const notFound = (message: string): HttpError => new HttpError(404, { message });
export const notModified = (): HttpError => new HttpError(304, undefined);
/** 409: the resource is busy with another writer; retrying shortly is safe. */
export const conflict = (globalErrors: string[], message: string): HttpError =>
  new HttpError(409, { fieldErrors: {}, globalErrors, message });
export const unavailable = (message: string): HttpError => new HttpError(503, { message });
