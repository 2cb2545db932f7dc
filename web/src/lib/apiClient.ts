import { CONSTANTS, MESSAGES, SIGNATURE_TICKET_PATH, type FieldErrors } from '@portal/contract';
import { PROJECT_NAME, XSRF_STORAGE_KEY } from './config';
import { paths } from './paths';

/**
 * The browser's only way to the API (000 §7 The calls it makes): JSON with the Accept header, credentials
 * included, caching disabled, the XSRF token from local storage and the project-name header on every call.
 */

/** A failed call, parsed into the spec's error shape (000 §7, 001 §5). `body` keeps the raw JSON (sign-in flags). */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  readonly globalErrors: string[];
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const message = typeof body.message === 'string' ? body.message : `Request failed with status ${status}`;
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.fieldErrors = isFieldErrors(body.fieldErrors) ? body.fieldErrors : {};
    this.globalErrors = Array.isArray(body.globalErrors) ? body.globalErrors.map(String) : [];
  }

  hasGlobalError(code: string): boolean {
    return this.globalErrors.includes(code);
  }
}

function isFieldErrors(value: unknown): value is FieldErrors {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => Array.isArray(v));
}

export function getXsrfToken(): string | null {
  return localStorage.getItem(XSRF_STORAGE_KEY);
}

export function setXsrfToken(token: string | undefined): void {
  if (token) localStorage.setItem(XSRF_STORAGE_KEY, token);
  else localStorage.removeItem(XSRF_STORAGE_KEY);
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign(`${paths.signIn.href}?message=${encodeURIComponent(MESSAGES.signIn.pleaseSignIn)}`);
};

/** The app registers how a 401 on a secure call signs the user out (000 §4 Secure page). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

let onSecureSuccess: () => void = () => {};

/** The auth state registers how a successful secure call moves lastSeen (000 §4 Session timeout). */
export function setSecureSuccessHandler(handler: () => void): void {
  onSecureSuccess = handler;
}

/**
 * Adds headers to a signed action's call (lib/signature `sendSigned`): called with each non-GET call's method,
 * path and body before it is sent; the headers it answers are sent with that call. A rejection is the call's.
 */
export type SignatureInterceptor = (
  method: string,
  path: string,
  body: unknown,
) => Promise<Record<string, string> | undefined>;
let signatureInterceptor: SignatureInterceptor | null = null;

/** A call that may be a signed decision: a secure call other than the signature and token calls. */
function isSignable(path: string): boolean {
  return (
    path.startsWith('/rest/secure/') &&
    !path.startsWith(SIGNATURE_TICKET_PATH.slice(0, SIGNATURE_TICKET_PATH.lastIndexOf('/') + 1)) &&
    !path.startsWith('/rest/secure/token/')
  );
}

/** Sets (or with null removes) the interceptor of signed calls; only `sendSigned` uses it. */
export function setSignatureInterceptor(interceptor: SignatureInterceptor | null): void {
  signatureInterceptor = interceptor;
}

export interface ApiResponse<T> {
  status: number;
  /** Undefined for an empty body (204, 304). */
  data: T | undefined;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** Do not sign the user out on a 401 (the sign-out call itself). */
  ignoreUnauthorized?: boolean;
  /** The browser cache mode; 'no-store' unless a call (reference data) revalidates with its ETag ('no-cache'). */
  cache?: RequestCache;
  /** How long to wait for the answer; uploads of large files take longer than the usual call. */
  timeoutMs?: number;
  /** Headers beside those of every call (a signed action's SIGNATURE_HEADER). */
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}

/** The headers of every call (000 §7): Accept, the project name and the XSRF token. */
function callHeaders(accept: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept, [CONSTANTS.projectHeader]: PROJECT_NAME };
  const token = getXsrfToken();
  if (token) headers[CONSTANTS.xsrfHeader] = token;
  return headers;
}

/** A call that has not answered after this long fails with a message instead of spinning forever. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * Sends one call. 2xx and 304 resolve (304 = 'nothing to change', 001 §8); anything else rejects with
 * an ApiError. A 401 on a /rest/secure call also signs the user out with 'Please sign in'.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers = { ...callHeaders('application/json'), ...options.headers };
  // The signature ticket is asked for with the very body this call sends: only a decision's call (a secure
  // non-GET), never the signature calls themselves nor the session's own token calls.
  const interceptor = signatureInterceptor;
  if (interceptor && method !== 'GET' && isSignable(path) && !(options.body instanceof FormData)) {
    Object.assign(headers, await interceptor(method, path, options.body));
  }
  // A FormData body (an upload) is sent as multipart/form-data with the boundary the browser chooses.
  const multipart = options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  const timeout = AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS);

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'include',
      cache: options.cache ?? 'no-store',
      body:
        options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    if (cause instanceof DOMException && cause.name === 'TimeoutError') {
      throw new ApiError(0, { message: 'The Portal Gateway did not answer in time. Please try again.' });
    }
    throw new ApiError(0, { message: 'The Portal Gateway could not be reached. Check your connection and try again.' });
  }

  if ((response.ok || response.status === 304) && path.startsWith('/rest/secure/')) onSecureSuccess();
  if (response.status === 304) return { status: 304, data: undefined };
  const json = await readJson(response);
  if (response.ok) return { status: response.status, data: json as T | undefined };

  const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  if (response.status === 401 && path.startsWith('/rest/secure/') && !options.ignoreUnauthorized) onUnauthorized();
  throw new ApiError(response.status, body);
}

export async function apiGet<T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal): Promise<T> {
  const { data } = await request<T>('GET', path, { query, signal });
  return data as T;
}

export const apiPost = <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} });
export const apiPut = <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} });

/** A downloaded file: its content, type and the name from its content-disposition (001 §7 report). */
export interface DownloadedFile {
  blob: Blob;
  contentType: string;
  fileName: string | null;
}

/** The file name of a `content-disposition` header (`filename*=UTF-8''...` preferred, then `filename="..."`). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1]!.trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]!.trim() : null;
}

/**
 * GETs a file (a report) with the headers of every call. A failure rejects with an ApiError carrying the
 * error body (403 message, 422 fieldErrors), as `request` does; a 401 signs the user out.
 */
export async function downloadFile(path: string, query?: RequestOptions['query']): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      headers: callHeaders('text/csv, application/json'),
      credentials: 'include',
      cache: 'no-store',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(0, { message: 'The Portal Gateway could not be reached. Check your connection and try again.' });
  }
  if (!response.ok) {
    const json = await readJson(response);
    if (response.status === 401 && path.startsWith('/rest/secure/')) onUnauthorized();
    throw new ApiError(
      response.status,
      typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {},
    );
  }
  if (path.startsWith('/rest/secure/')) onSecureSuccess();
  return {
    blob: await response.blob(),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
  };
}
