/**
 * What a test run left behind: every process that inherited the run's marker variable
 * (`PORTAL_TEST_RUN=<id>`, set by `main.ts` before anything starts) and is still alive, with the TCP
 * ports it listens on. Children of the stack inherit the environment, so a PostgreSQL, Temporal, slapd,
 * MailDev, API, worker or Chromium that outlived its test shows here even after it was re-parented to init.
 * Linux only (reads /proc); elsewhere it finds nothing.
 */
import fs from 'node:fs';

/** The variable every process of a test run carries. */
export const RUN_MARKER = 'PORTAL_TEST_RUN';

/** A process still running that carries the marker. */
export interface Leftover {
  pid: number;
  command: string;
  /** TCP ports it listens on (IPv4 and IPv6). */
  ports: number[];
}

const read = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** A folder's entries, or none when it is gone (a process that just exited). */
const list = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

/** A symbolic link's target, or '' when it is gone. */
const linkOf = (file: string): string => {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '';
  }
};

/** Socket inodes of listening TCP sockets, by inode, with their port. */
function listeningInodes(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(file) ?? '').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is "HEX_IP:HEX_PORT"; state 0A is LISTEN; field 9 is the inode.
      if (f.length > 9 && f[3] === '0A') out.set(f[9]!, parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return out;
}

function portsOf(pid: number, listening: Map<string, number>): number[] {
  const ports = new Set<number>();
  for (const fd of list(`/proc/${pid}/fd`)) {
    const target = linkOf(`/proc/${pid}/fd/${fd}`);
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    const port = inode ? listening.get(inode) : undefined;
    if (port !== undefined) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/**
 * The live processes carrying `RUN_MARKER=<runId>`, except the pids in `exclude` (the runner and its own
 * parents). Zombies (exited, not yet reaped) are not counted: they hold neither CPU nor ports.
 */
export function findLeftovers(runId: string, exclude: Set<number>): Leftover[] {
  const needle = `\0${RUN_MARKER}=${runId}\0`;
  const listening = listeningInodes();
  const out: Leftover[] = [];
  for (const entry of list('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (exclude.has(pid)) continue;
    const environ = read(`/proc/${pid}/environ`);
    if (environ === null || !`\0${environ}`.includes(needle)) continue;
    const state = /^State:\s+(\S)/m.exec(read(`/proc/${pid}/status`) ?? '')?.[1];
    if (state === 'Z' || state === 'X') continue;
    const command = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
    out.push({ pid, command, ports: portsOf(pid, listening) });
  }
  return out;
}

/** The pid of `pid`'s parent, or 0. */
function parentOf(pid: number): number {
  const stat = read(`/proc/${pid}/stat`) ?? '';
  // The command name is in parentheses and may hold spaces: the fields after its last ')' are fixed.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[1] ?? 0);
}

/**
 * The runner's own processes: `pid`, its ancestors up to init, and its live descendants (a phase has ended
 * by the time this is asked, so what still hangs below the runner is the runner's own, such as the esbuild
 * service its TypeScript loader keeps; a stack process a test forgot was re-parented away from it).
 */
export function ownProcesses(pid = process.pid): Set<number> {
  const out = new Set<number>();
  for (let p = pid; p > 1 && !out.has(p); p = parentOf(p)) out.add(p);
  const children = new Map<number, number[]>();
  for (const entry of list('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const below = [pid];
  while (below.length > 0) {
    for (const child of children.get(below.pop()!) ?? []) {
      if (!out.has(child)) {
        out.add(child);
        below.push(child);
      }
    }
  }
  return out;
}

/**
 * Waits up to `graceMs` for marked processes to end (a stack's last process may still be exiting when the
 * last phase returns), polling every 200 ms. @returns the processes still alive at the deadline.
 */
export async function leftoversAfter(runId: string, exclude: Set<number>, graceMs = 15_000): Promise<Leftover[]> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const found = findLeftovers(runId, exclude);
    if (found.length === 0 || Date.now() >= deadline) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}
