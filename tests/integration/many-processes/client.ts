/**
 * A small HTTP client of the tests across API processes: real requests to a process's own port, from a
 * loopback address of the caller's choosing (127.x.y.z), so the rate limits, which count per client address,
 * see a client no other test ever was. Carries the session cookie and the XSRF header like the browser.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { expect } from 'vitest';

export interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  json<T = Record<string, unknown>>(): T;
}

export interface Session {
  cookie: string;
  xsrf: string;
}

/** A loopback address (127.x.y.z, never 127.0.0.1) for one client of one test. */
export const loopbackClient = (): string => {
  const [a, b, c] = crypto.randomBytes(3);
  return `127.${(a! % 254) + 1}.${b}.${(c! % 253) + 2}`;
};

/** One request to `base` + `path` from `from`, with `session`'s cookie and XSRF header when given. */
export function send(
  base: string,
  path: string,
  opts: { method?: string; body?: unknown; session?: Session | null; from: string },
): Promise<Reply> {
  const url = new URL(path, base);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (opts.session) {
    headers.cookie = opts.session.cookie;
    headers['x-xsrf-token'] = opts.session.xsrf;
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method ?? 'GET',
        headers,
        localAddress: opts.from,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers, json: () => JSON.parse(body) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer from ${url.href} within 60 s`)));
    req.end(payload);
  });
}

/** POST /rest/token/create at `base`. */
export const signInCall = (base: string, username: string, password: string, from: string) =>
  send(base, '/rest/token/create', { method: 'POST', body: { username, password }, from });

/** Signs in at `base` and expects 200. @returns the session cookie and XSRF token. */
export async function signInAt(base: string, username: string, password: string, from: string): Promise<Session> {
  const res = await signInCall(base, username, password, from);
  expect(res.status, res.body).toBe(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.map((c) => c.split(';')[0]!).find((c) => c.startsWith('pg_session='));
  expect(cookie, 'a pg_session cookie').toBeDefined();
  return { cookie: cookie!, xsrf: res.json<{ xsrfToken: string }>().xsrfToken };
}
