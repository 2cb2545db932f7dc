import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findLeftovers, leftoversAfter, RUN_MARKER, selfAndAncestors } from './leftovers';

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

/** A detached process carrying the marker, listening on a port, as an orphaned stack service would. */
async function markedListener(runId: string): Promise<{ pid: number; port: number }> {
  const child = spawn(
    process.execPath,
    ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"],
    { env: { ...process.env, [RUN_MARKER]: runId }, detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child.pid!);
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(d))));
  child.unref();
  return { pid: child.pid!, port };
}

describe.runIf(process.platform === 'linux')('what a test run left behind', () => {
  it('finds a live process carrying the run marker, with the port it listens on, and only that run', async () => {
    const runId = crypto.randomUUID();
    const { pid, port } = await markedListener(runId);
    const found = findLeftovers(runId, selfAndAncestors());
    expect(found.map((l) => l.pid)).toEqual([pid]);
    expect(found[0]!.ports).toEqual([port]);
    expect(found[0]!.command).toContain('createServer');
    expect(findLeftovers(crypto.randomUUID(), selfAndAncestors())).toEqual([]);
  });

  it('does not count the runner itself and its parents', () => {
    const runId = crypto.randomUUID();
    process.env[RUN_MARKER] = runId;
    try {
      expect(selfAndAncestors().has(process.pid)).toBe(true);
      expect(findLeftovers(runId, selfAndAncestors())).toEqual([]);
    } finally {
      delete process.env[RUN_MARKER];
    }
  });

  it('waits for a process that is ending, and reports nothing once it has', async () => {
    const runId = crypto.randomUUID();
    const { pid } = await markedListener(runId);
    setTimeout(() => process.kill(pid, 'SIGTERM'), 300);
    expect(await leftoversAfter(runId, selfAndAncestors(), 30_000)).toEqual([]);
    expect(net.isIP('127.0.0.1')).toBe(4);
  });
});
