/**
 * What every bench needs of the product: a whole local stack of its own (seeded, on free ports, in a
 * throw-away folder, quiet) and a demo account's session.
 */
import { pathToFileURL } from 'node:url';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { type ThrowawayStack, startThrowawayStack } from '../support/throwaway-stack';

/**
 * Starts a quiet stack of the bench's own (`env`: the services' environment, e.g. SEED_GENERATED_USERS). Its
 * staff sign in with the password alone (SECOND_FACTOR_REQUIRED_PERMISSIONS '' unless `env` names some): the
 * benches time the lists, not the enrolment.
 */
export const startBenchStack = (name: string, env: NodeJS.ProcessEnv = process.env): Promise<ThrowawayStack> =>
  startThrowawayStack(name, {
    env: { ...env, SECOND_FACTOR_REQUIRED_PERMISSIONS: env.SECOND_FACTOR_REQUIRED_PERMISSIONS ?? '' },
  });

/**
 * A bench run on its own (`npx tsx --conditions=development bench/<file>.ts`): when `moduleUrl` is the script
 * node was started with, runs `measure` on a stack of its own named `name`, prints `report` of the result as
 * JSON and exits 1 when its `missed` is not empty or on an error. Does nothing when the module is imported.
 */
export function runAlone<R>(
  moduleUrl: string,
  name: string,
  measure: (stack: ThrowawayStack) => Promise<R>,
  report: (result: R) => Record<string, unknown> & { missed: string[] },
): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  const run = async () => {
    const stack = await startBenchStack(name);
    try {
      const out = report(await measure(stack));
      console.log(JSON.stringify(out, null, 2));
      process.exitCode = out.missed.length ? 1 : 0;
    } finally {
      await stack.close();
    }
  };
  run().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

export interface BenchSession {
  cookie: string;
  xsrf: string;
  /** The headers of a secure call: the session cookie and the XSRF header. */
  headers: { cookie: string; 'x-xsrf-token': string };
}

/** Signs in as the demo account `username` at `base`. @throws Error when the sign-in is not 200. */
export const signIn = (base: string, username: string): Promise<BenchSession> =>
  signInAs(base, username, DEMO_ACCOUNTS.find((a) => a.username === username)!.password);

/** Signs in as `username` with `password` at `base`. @throws Error when the sign-in is not 200. */
export async function signInAs(base: string, username: string, password: string): Promise<BenchSession> {
  const res = await fetch(`${base}/rest/token/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in as ${username} answered ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('pg_session='))!
    .split(';')[0]!;
  const xsrf = ((await res.json()) as { xsrfToken: string }).xsrfToken;
  return { cookie, xsrf, headers: { cookie, 'x-xsrf-token': xsrf } };
}

/** A timed call's answer: its duration (ms, 202 retries included) and its JSON body. */
export interface TimedCall {
  ms: number;
  json: Record<string, unknown>;
}

/**
 * One call at `base` as `s`, timed; a 202 (still processing, REQUEST-LIFECYCLE rule 6) is sent again, same
 * body and attempt key, until it answers. @throws Error for any other answer that is not 2xx.
 */
export async function timedCall(
  base: string,
  s: BenchSession,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TimedCall> {
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...s.headers, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // Still processing (REQUEST-LIFECYCLE rule 6): the same attempt again until it answers.
    if (res.status === 202) {
      await res.arrayBuffer();
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
    return { ms: performance.now() - started, json: (await res.json()) as Record<string, unknown> };
  }
}
