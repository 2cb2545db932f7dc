/**
 * The whole product started for a test run or a bench: seeded with the demo data, on free ports, in a new
 * `<tmp>/portal-<name>-*` folder that goes away with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack } from '@portal/scripts';

export type ThrowawayStack = Awaited<ReturnType<typeof startStack>> & {
  /** Stops every process and removes the data folder. */
  close(): Promise<void>;
};

/**
 * Starts the stack (`env`: the services' environment, e.g. SEED_GENERATED_USERS; `log`: where its lines go,
 * nowhere by default). @throws Error when a service does not come up.
 */
export async function startThrowawayStack(
  name: string,
  opts: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<ThrowawayStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${name}-`));
  fs.chmodSync(dataDir, 0o755);
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: true,
    handleSignals: false,
    ...(opts.env ? { env: opts.env } : {}),
    log: opts.log ?? (() => {}),
  });
  return Object.assign(stack, {
    close: async () => {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
