import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findLeftovers, leftoversAfter, RUN_MARKER, ownProcesses } from './leftovers';

const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/**
 * A process carrying the marker, listening on a port, re-parented away from this one (its shell exits at
 * once), as a stack service a test forgot to stop would be.
 */
async function markedListener(runId: string): Promise<{ pid: number; port: number }> {
  const script =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(process.pid+' '+s.address().port))";
  const shell = spawn('sh', ['-c', `"${process.execPath}" -e "${script}" &`], {
    env: { ...process.env, [RUN_MARKER]: runId },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [pid, port] = await new Promise<number[]>((resolve) =>
    shell.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' ').map(Number))),
  );
  children.push(pid!);
  return { pid: pid!, port: port! };
}

describe.runIf(process.platform === 'linux')('what a test run left behind', () => {
  it('finds a live process carrying the run marker, with the port it listens on, and only that run', async () => {
    const runId = crypto.randomUUID();
    const { pid, port } = await markedListener(runId);
    const found = findLeftovers(runId, ownProcesses());
    expect(found.map((l) => l.pid)).toEqual([pid]);
    expect(found[0]!.ports).toEqual([port]);
    expect(found[0]!.command).toContain('createServer');
    expect(findLeftovers(crypto.randomUUID(), ownProcesses())).toEqual([]);
  });

  it("does not count the runner's own child processes, only what was re-parented away from it", async () => {
    const runId = crypto.randomUUID();
    const own = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      env: { ...process.env, [RUN_MARKER]: runId },
      stdio: 'ignore',
    });
    children.push(own.pid!);
    const orphan = await markedListener(runId);
    expect(ownProcesses().has(own.pid!)).toBe(true);
    expect(findLeftovers(runId, ownProcesses()).map((l) => l.pid)).toEqual([orphan.pid]);
  });

  it('does not count the runner itself and its parents', () => {
    const runId = crypto.randomUUID();
    process.env[RUN_MARKER] = runId;
    try {
      expect(ownProcesses().has(process.pid)).toBe(true);
      expect(findLeftovers(runId, ownProcesses())).toEqual([]);
    } finally {
      delete process.env[RUN_MARKER];
    }
  });

  it('waits for a process that is ending, and reports nothing once it has', async () => {
    const runId = crypto.randomUUID();
    const { pid } = await markedListener(runId);
    setTimeout(() => process.kill(pid, 'SIGTERM'), 300);
    expect(await leftoversAfter(runId, ownProcesses(), 30_000)).toEqual([]);
    expect(net.isIP('127.0.0.1')).toBe(4);
  });
});
