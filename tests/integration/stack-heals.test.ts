/**
 * `npm run up` heals instead of stopping (issue 14): a real `scripts/src/up.ts` in a throw-away folder on
 * free ports; the worker and then the API are killed with SIGKILL, the supervisor logs each restart and
 * both come back while the backing services keep running; SIGINT then stops every process the run started.
 * The banner names the API's /metrics listener (METRICS_PORT), which answers as production's does.
 * A backing service that dies (slapd here) stops the whole stack. (Each test starts its own stack; the
 * shared one of the global setup is not used.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForHttp } from '@portal/scripts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface Proc {
  pid: number;
  /** Start time in clock ticks since boot: tells a process from a later one that reuses its pid. */
  started: string;
  command: string;
}

function readProc(pid: number): (Proc & { ppid: number }) | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return { pid, ppid: Number(fields[1]), started: fields[19]!, command };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (children, grandchildren, ...). */
function descendants(root: number): Proc[] {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p) => p !== null);
  const found: Proc[] = [];
  const visit = (pid: number): void => {
    for (const child of all.filter((p) => p.ppid === pid)) {
      found.push(child);
      visit(child.pid);
    }
  };
  visit(root);
  return found;
}

const stillRunning = (p: Proc): boolean => readProc(p.pid)?.started === p.started;

/** The supervisor's output, with a way to wait for a line after a given position. */
class Output {
  readonly lines: string[] = [];
  constructor(child: ChildProcess) {
    for (const stream of [child.stdout!, child.stderr!]) {
      readline.createInterface({ input: stream }).on('line', (line) => this.lines.push(line));
    }
  }

  /** Waits for a line matching `pattern` at index >= `from`; returns its match and index. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 90_000): Promise<{ match: RegExpMatchArray; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.lines.length; i++) {
        const match = this.lines[i]!.match(pattern);
        if (match) return { match, index: i };
      }
      if (Date.now() > deadline) {
        throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${this.lines.slice(-40).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** One `up.ts` run in its own folder, with every process seen under it (for the clean-up checks). */
class UpRun {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-heal-'));
  readonly child: ChildProcess;
  readonly output: Output;
  readonly exited: Promise<number | null>;
  readonly seen = new Map<string, Proc>();

  constructor() {
    fs.chmodSync(this.dataDir, 0o755); // PostgreSQL runs as its own user and must reach its folder
    // Only what the supervisor needs: no service URL of the test run may leak in and be reused.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, TEMPORAL_BIN: process.env.TEMPORAL_BIN };
    this.child = spawn(
      process.execPath,
      [
        '--conditions=development',
        '--import',
        'tsx',
        'scripts/src/up.ts',
        '--random-ports',
        '--no-seed',
        '--data-dir',
        this.dataDir,
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.output = new Output(this.child);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Adds the supervisor's current descendants to `seen`. */
  remember(): void {
    for (const p of descendants(this.child.pid!)) this.seen.set(`${p.pid}:${p.started}`, p);
  }

  /** The processes seen so far that still run. */
  left(): string[] {
    return [...this.seen.values()].filter(stillRunning).map((p) => `${p.pid} ${p.command}`);
  }

  /** What is still running after a short grace (a helper such as esbuild's service exits when its pipe closes). */
  async leftAfterGrace(ms = 5_000): Promise<string[]> {
    const deadline = Date.now() + ms;
    while (this.left().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return this.left();
  }

  /** Waits for the stack and the first worker; returns the portal URL and the backing services' processes. */
  async untilUp(): Promise<{ portal: string; services: Proc[] }> {
    const { index } = await this.output.waitFor(/^\[stack\] up in /, 0, 180_000);
    const portal = (await this.output.waitFor(/^\s+Portal\s+(http:\S+)/, index)).match[1]!;
    await this.output.waitFor(/^\[worker\] worker running on task queue/);
    this.remember();
    const services = [...this.seen.values()].filter((p) => SERVICE.test(p.command));
    expect(services.map((p) => p.command.match(SERVICE)![0]).sort()).toEqual([
      'maildev',
      'postgres',
      'slapd',
      'temporal',
    ]);
    return { portal, services };
  }

  /** Kills whatever is left (after a failed test) and removes the folder. */
  async cleanUp(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.remember();
      this.child.kill('SIGKILL');
    }
    for (const p of this.seen.values()) if (stillRunning(p)) process.kill(p.pid, 'SIGKILL');
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

const SERVICE = /temporal(?= server)|slapd|maildev|postgres(?= -D)/;
const runs: UpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.cleanUp()));
});

describe('npm run up', () => {
  it('restarts a SIGKILLed worker and API, keeps the services, and stops everything on SIGINT', async () => {
    const run = new UpRun();
    runs.push(run);
    const { output } = run;
    const { portal, services } = await run.untilUp();
    // What production exposes: the API's /metrics on a listener of its own, without a token, named in the banner.
    const metrics = (await output.waitFor(/^\s+Metrics \(API\)\s+(http:\S+)/)).match[1]!;
    const scrape = await fetch(metrics);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('portal_http_request_duration_seconds');
    const workerPid = Number((await output.waitFor(/^\[stack\] worker started \(pid (\d+)\)/)).match[1]);
    const apiPid = Number((await output.waitFor(/^\[stack\] api started \(pid (\d+)\)/)).match[1]);
    // Issue 20: each process of the stack runs on Node 24 and names it in its first line.
    const firstLine = (name: string) => output.lines.find((l) => l.startsWith(`[${name}] `));
    expect(firstLine('api')).toMatch(
      new RegExp(`^\\[api\\] api starting on Node v24\\.\\d+\\.\\d+ \\(pid ${apiPid}\\)$`),
    );
    expect(firstLine('worker')).toMatch(
      new RegExp(`^\\[worker\\] worker starting on Node v24\\.\\d+\\.\\d+ \\(pid ${workerPid}\\)$`),
    );

    process.kill(workerPid, 'SIGKILL');
    const crash = await output.waitFor(
      new RegExp(
        `^\\[stack\\] worker \\(pid ${workerPid}\\) exited with signal SIGKILL after [\\d.]+ m?s: restarting in 1 s \\(attempt 1\\)$`,
      ),
    );
    const restart = await output.waitFor(/^\[stack\] worker restarted \(pid (\d+)\)/, crash.index);
    const newWorker = Number(restart.match[1]);
    expect(newWorker).not.toBe(workerPid);
    await output.waitFor(
      new RegExp(`^\\[worker\\] worker starting on Node v24\\.\\S+ \\(pid ${newWorker}\\)$`),
      restart.index,
    );
    await output.waitFor(/^\[worker\] worker running on task queue/, restart.index);

    process.kill(apiPid, 'SIGKILL');
    const apiCrash = await output.waitFor(
      new RegExp(`^\\[stack\\] api \\(pid ${apiPid}\\) exited with signal SIGKILL`),
    );
    await output.waitFor(/^\[stack\] api restarted \(pid \d+\)/, apiCrash.index);
    await waitForHttp(`${portal}/rest/public/health`, 'API after its restart', 60_000);

    expect(services.every(stillRunning)).toBe(true);
    expect(output.lines.some((l) => /stopping all/.test(l))).toBe(false);
    expect(readProc(newWorker)).not.toBeNull();

    run.remember();
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(await run.leftAfterGrace()).toEqual([]);
  }, 300_000);

  it('stops the whole stack when a backing service dies', async () => {
    const run = new UpRun();
    runs.push(run);
    const { services } = await run.untilUp();
    const slapd = services.find((p) => p.command.includes('slapd'))!;

    process.kill(slapd.pid, 'SIGKILL');
    await run.output.waitFor(/^\[stack\] slapd stopped unexpectedly \(signal SIGKILL\): stopping all$/);
    expect(await run.exited).toBe(1);
    expect(await run.leftAfterGrace()).toEqual([]);
    expect(run.output.lines.some((l) => /restart/.test(l))).toBe(false);
  }, 300_000);
});
