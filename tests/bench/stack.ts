/**
 * What every bench needs of the product: a whole local stack of its own (seeded, on free ports, in a
 * throw-away folder, quiet) and a demo account's session.
 */
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { type ThrowawayStack, startThrowawayStack } from '../support/throwaway-stack';

/** Starts a quiet stack of the bench's own (`env`: the services' environment, e.g. SEED_GENERATED_USERS). */
export const startBenchStack = (name: string, env?: NodeJS.ProcessEnv): Promise<ThrowawayStack> =>
  startThrowawayStack(name, { env });

export interface BenchSession {
  cookie: string;
  xsrf: string;
  /** The headers of a secure call: the session cookie and the XSRF header. */
  headers: { cookie: string; 'x-xsrf-token': string };
}

/** Signs in as the demo account `username` at `base`. @throws Error when the sign-in is not 200. */
export async function signIn(base: string, username: string): Promise<BenchSession> {
  const password = DEMO_ACCOUNTS.find((a) => a.username === username)!.password;
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
