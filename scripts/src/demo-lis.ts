/**
 * The demo 'Laboratory Information System (demo)' in the local stack (issue 41 "A real target to try it
 * with"): scim2-server (services/scim.ts) on its own port (DEMO_SCIM_PORT, 8091) accepting the data folder's
 * `demoScimToken`, started with the apps and before the seed, which registers it as the provisioning target of
 * the system 'Laboratory Information System (demo)' (prisma/seed/demo-lis.ts). It keeps its accounts in
 * memory: every start begins empty, and the seed notes the people holding the system so the worker creates
 * their accounts again. It is another system, not a backing service: when it dies the stack logs it and carries
 * on, as the portal must when a real target is down.
 */
import type { Log } from './procs';
import { type ScimHandle, startScimServer } from './services/scim';

/** The variables the seed reads to register the demo target (prisma/seed/demo-lis.ts). */
export function demoLisEnv(opts: { url: string; token: string }): Record<string, string> {
  return { DEMO_SCIM_URL: opts.url, DEMO_SCIM_TOKEN: opts.token };
}

/**
 * Starts the demo target on 127.0.0.1:`port` with the portal's study-access extension, and logs (never more) when
 * it exits before `stop`. @throws Error when scim2-server is not installed (scripts/install.sh) or does not
 * answer within 30 s.
 */
export async function startDemoLis(port: number, token: string, log: Log): Promise<ScimHandle> {
  const scim = await startScimServer({ port, token, log });
  let stopping = false;
  void scim.exited.then((info) => {
    if (!stopping) {
      log(`[stack] the demo laboratory system (scim2-server) exited (${info.signal ?? `exit code ${info.code}`})`);
    }
  });
  return {
    ...scim,
    stop: () => {
      stopping = true;
      return scim.stop();
    },
  };
}
