/**
 * What every bench needs of the product: a whole local stack of its own (seeded, on free ports, in a
 * throw-away folder, quiet) and a demo account's session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { startStack } from '@portal/scripts';

export type BenchStack = Awaited<ReturnType<typeof startStack>> & {
  /** Stops every process and removes the data folder. */
  close(): Promise<void>;
};

/**
 * Starts the stack with demo data in a new `<tmp>/portal-<name>-*` folder (`env`: the services' environment,
 * e.g. SEED_GENERATED_USERS). @throws Error when a service does not come up.
 */
export async function startBenchStack(name: string, env?: NodeJS.ProcessEnv): Promise<BenchStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${name}-`));
  fs.chmodSync(dataDir, 0o755);
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: true,
    handleSignals: false,
    ...(env ? { env } : {}),
    log: () => {},
  });
  return Object.assign(stack, {
    close: async () => {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

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
