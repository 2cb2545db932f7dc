/**
 * Child processes of the local stack: spawned in their own process group (so Ctrl-C reaches only the
 * supervisor, which then stops them in order), output relayed line by line with a `[name]` prefix,
 * stopped with SIGTERM then SIGKILL, and remembered in a pid file so a crashed run can be cleaned up.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

export type Log = (line: string) => void;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  name: string;
  pid: number;
  /** Resolves once the process has exited (never rejects). */
  exited: Promise<ExitInfo>;
  isRunning(): boolean;
  /** The last lines of output, for error messages. */
  tail(): string;
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  log: Log;
  /** Written with the pid after spawn, removed after exit. */
  pidFile?: string;
  /** Output lines matching this are not relayed (still kept for tail()). */
  mute?: RegExp;
  /** Sees every output line, relayed or not. */
  onLine?: (line: string) => void;
}

const running = new Set<ManagedProcess>();
let exitHookInstalled = false;

/** Last resort: when the supervisor exits without stopping its children, terminate them. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const p of running) killGroup(p.pid, 'SIGTERM');
  });
}

/** Sends SIGKILL to every managed process still running (used on a second Ctrl-C). */
export function killAllManaged(): void {
  for (const p of running) killGroup(p.pid, 'SIGKILL');
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Spawns `command` as a managed child process.
 * @throws Error when the executable cannot be started (ENOENT etc.) — reported through `exited` instead
 *   when it fails after spawning.
 */
export function spawnManaged(opts: SpawnOptions): ManagedProcess {
  installExitHook();
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const onLine = (line: string): void => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
    if (!opts.mute?.test(line)) opts.log(`[${opts.name}] ${line}`);
    opts.onLine?.(line);
  };
  for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on('line', onLine);

  let done = false;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('error', (err) => {
      onLine(`failed to start: ${err.message}`);
      done = true;
      resolve({ code: -1, signal: null });
    });
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const managed: ManagedProcess = {
    name: opts.name,
    pid: child.pid ?? -1,
    exited,
    isRunning: () => !done,
    tail: () => lines.join('\n'),
    async stop(graceMs = 5_000) {
      if (!done && child.pid) {
        killGroup(child.pid, 'SIGTERM');
        const timer = setTimeout(() => child.pid && killGroup(child.pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      await exited;
    },
  };
  if (child.pid) {
    running.add(managed);
    if (opts.pidFile) fs.writeFileSync(opts.pidFile, `${child.pid}\n`);
  }
  void exited.then(() => {
    running.delete(managed);
    if (opts.pidFile && fs.existsSync(opts.pidFile)) {
      const recorded = fs.readFileSync(opts.pidFile, 'utf8').trim();
      if (recorded === String(child.pid)) fs.rmSync(opts.pidFile, { force: true });
    }
  });
  return managed;
}

/**
 * Runs a command to completion, relaying its output. With `doneWhen`, a matching output line means the
 * work is done: a process that then lingers (e.g. on an idle connection pool) is stopped after 1 s.
 * @throws Error with the exit code and the last lines of output when it fails.
 */
export async function runToCompletion(opts: SpawnOptions & { doneWhen?: RegExp }): Promise<void> {
  let done = false;
  let linger: NodeJS.Timeout | undefined;
  const onLine = (line: string): void => {
    if (opts.doneWhen?.test(line) && !done) {
      done = true;
      linger = setTimeout(() => void p.stop(), 1_000);
    }
  };
  const p = spawnManaged({ ...opts, onLine });
  const { code, signal } = await p.exited;
  clearTimeout(linger);
  if (code !== 0 && !done) {
    throw new Error(`${opts.name} failed (${signal ?? `exit code ${code}`}):\n${p.tail()}`);
  }
}

/**
 * Resolves with `ready`, or rejects as soon as the process exits first.
 * @throws Error naming the process, with its last lines of output.
 */
export async function untilReady<T>(p: ManagedProcess, ready: Promise<T>): Promise<T> {
  let settled = false;
  const died = p.exited.then(({ code, signal }): T => {
    if (settled) return undefined as T;
    throw new Error(`${p.name} exited during start-up (${signal ?? `exit code ${code}`}):\n${p.tail()}`);
  });
  try {
    return await Promise.race([ready, died]);
  } finally {
    settled = true;
    ready.catch(() => undefined);
  }
}

function parentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/**
 * Deals with a process left behind by an earlier run, recorded in `pidFile`: when it is still alive and
 * orphaned (its supervisor is gone) it is terminated; when a live supervisor still owns it, this throws.
 * @throws Error naming the process and its pid when another run is still using the data folder.
 */
export async function clearStale(
  pidFile: string,
  what: string,
  log: Log,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const alive = Number.isInteger(pid) && pid > 0 && fs.existsSync(`/proc/${pid}`);
  if (!alive) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  const ppid = parentPid(pid);
  const orphaned = ppid === 1 || ppid === null || !/node/.test(commandLine(ppid));
  if (!orphaned) {
    throw new Error(
      `${what} is already running (pid ${pid}: ${commandLine(pid).trim()}), started by another process (pid ${ppid}). ` +
        'Stop that run first or use another data folder.',
    );
  }
  log(`stopping ${what} left over from an earlier run (pid ${pid})`);
  killGroup(pid, signal);
  const deadline = Date.now() + 10_000;
  while (fs.existsSync(`/proc/${pid}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (fs.existsSync(`/proc/${pid}`)) killGroup(pid, 'SIGKILL');
  fs.rmSync(pidFile, { force: true });
}
