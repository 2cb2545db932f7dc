import { vi } from 'vitest';

/**
 * Mocked HTTP for component tests: `fetch` is stubbed with a table of handlers keyed 'METHOD /path' (the path
 * without its query string). A handler answers with `reply(status, body)` or throws to simulate a network
 * failure; a call without a handler fails the test with its method and path. `calls` records every request
 * with its parsed JSON body, so tests assert what the screen sent.
 */

export interface ApiCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** The call's headers, names lower-cased. */
  headers: Record<string, string>;
}

export type Handler = (call: ApiCall) => Response | Promise<Response>;

/** A JSON answer; 204 and 304 carry no body. */
export function reply(status: number, body?: unknown): Response {
  if (status === 204 || status === 304 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** `content` as the API's one and only page of a list (000 §3 Page info), newest first. */
export function pageOf<T>(content: T[]) {
  return {
    content,
    totalElements: content.length,
    numberOfElements: content.length,
    size: 1000,
    number: 1,
    totalPages: 1,
    first: true,
    last: true,
    sort: 'sysdat,desc',
  };
}

/** Handlers may be a fixed answer list: each call takes the next one, the last one repeats. */
export function sequence(...answers: Handler[]): Handler {
  let next = 0;
  return (call) => answers[Math.min(next++, answers.length - 1)]!(call);
}

export function mockApi(handlers: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://portal.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: ApiCall = {
      method,
      path: url.pathname,
      search: url.search,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    if (!handler) throw new Error(`No mocked answer for ${method} ${url.pathname}`);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls to one 'METHOD /path'. */
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key),
  };
}
