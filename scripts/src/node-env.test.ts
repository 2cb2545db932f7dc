/**
 * Issue 20: the project runs on Node.js 24. `scripts/node-env.sh` (sourced by `npm run up`, `npm test`, the
 * install and `.ci/run`) puts Node 24 first on PATH when the machine's `node` is older, and leaves a Node 24
 * or newer alone. The machines start with Node 20 in /usr/bin, so a PATH of only the system folders is the
 * fresh machine; on one whose system node is already 24 the same call must keep it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath } from './paths';

const NODE_ENV = repoPath('scripts', 'node-env.sh');

/** Sources node-env.sh under `PATH` and prints the `node` it leaves on PATH and that node's version. */
function nodeAfterSourcing(PATH: string): { node: string; version: string } {
  const out = execFileSync('/bin/bash', ['-c', `source "${NODE_ENV}" && command -v node && node -p process.version`], {
    env: { PATH, HOME: process.env.HOME },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [node = '', version = ''] = out.trim().split('\n');
  return { node, version };
}

describe('scripts/node-env.sh', () => {
  it('runs these tests on Node 24 or newer', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('puts Node 24 first on PATH when only the system node is there', () => {
    const system = nodeAfterSourcing('/usr/local/bin:/usr/bin:/bin');
    expect(system.version).toMatch(/^v(2[4-9]|[3-9]\d)\./);
    const systemNode = ['/usr/local/bin/node', '/usr/bin/node'].find((p) => fs.existsSync(p));
    const systemMajor = systemNode
      ? Number(execFileSync(systemNode, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }))
      : 0;
    if (systemMajor < 24) expect(system.node).toContain(path.join('portal-gateway', 'node24'));
    else expect(system.node).toBe(systemNode);
  });

  it('keeps a Node 24 that is already first on PATH', () => {
    const own = path.dirname(process.execPath);
    const kept = nodeAfterSourcing(`${own}:/usr/bin:/bin`);
    expect(kept.node).toBe(path.join(own, 'node'));
    expect(kept.version).toBe(process.version);
  });
});
