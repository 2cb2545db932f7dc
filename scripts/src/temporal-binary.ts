/**
 * Where the Temporal CLI (dev server + Web UI) lives: the same places scripts/install.sh checks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folder scripts/install.sh builds the Temporal CLI into when it is not on PATH. */
export const temporalCacheBin = (home = os.homedir()): string =>
  path.join(home, '.cache', 'portal-gateway', 'bin', 'temporal');

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves the `temporal` executable: `TEMPORAL_BIN` when set, else `temporal` on PATH, else the copy built
 * by scripts/install.sh in ~/.cache/portal-gateway/bin.
 * @throws Error when TEMPORAL_BIN is not executable or no binary is found (run `bash scripts/install.sh`).
 */
export function resolveTemporalBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.TEMPORAL_BIN;
  if (override) {
    if (!isExecutable(override)) throw new Error(`TEMPORAL_BIN=${override} is not an executable file`);
    return override;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, 'temporal'))) return path.join(dir, 'temporal');
  }
  const cached = temporalCacheBin(env.HOME || os.homedir());
  if (isExecutable(cached)) return cached;
  throw new Error(
    `Temporal CLI not found (TEMPORAL_BIN unset, no 'temporal' on PATH, nothing at ${cached}). ` +
      'Run `bash scripts/install.sh` to build it.',
  );
}
