// `--instances` (issue 24): the flag's values, the further API processes' ports and environment.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { apiInstanceEnv, apiPorts, instanceName, parseInstances } from './instances';
import { freePort } from './net';
import type { PortPlan } from './ports';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A plan whose portal port is `portal` and whose e-learning listener takes the port after it. */
const planAt = (portal: number): PortPlan =>
  ({ portal, elearning: portal + 1, demoSystem: portal + 10 }) as unknown as PortPlan;

/** A free port p such that p .. p + span are free too (checked once; good enough on a quiet test machine). */
async function freeRange(span: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base + span > 65_000) continue;
    const free = await Promise.all(
      Array.from(
        { length: span },
        (_, i) =>
          new Promise<boolean>((resolve) => {
            const s = net.createServer();
            s.once('error', () => resolve(false));
            s.listen(base + i + 1, '127.0.0.1', () => s.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return base;
  }
}

describe('--instances', () => {
  it('is 1 by default and a whole number from 1 to 8, named on error', () => {
    expect(parseInstances(undefined)).toBe(1);
    expect(parseInstances('2')).toBe(2);
    for (const bad of ['0', '9', '1.5', 'two', '', '-1']) expect(() => parseInstances(bad)).toThrow(/--instances/);
  });

  it('gives further APIs the next ports the plan leaves free, and names a busy one', async () => {
    const base = await freeRange(4);
    expect(await apiPorts('default', planAt(base), 1)).toEqual([base]);
    // base + 1 is the e-learning listener's: skipped.
    expect(await apiPorts('default', planAt(base), 3)).toEqual([base, base + 2, base + 3]);
    const busy = net.createServer();
    servers.push(busy);
    await new Promise<void>((r) => busy.listen(base + 2, '127.0.0.1', r));
    await expect(apiPorts('default', planAt(base), 2)).rejects.toThrow(`port ${base + 2} is already in use`);
  });

  it('gives further APIs distinct free ports with random ports', async () => {
    const base = await freePort();
    const ports = await apiPorts('random', planAt(base), 3);
    expect(ports[0]).toBe(base);
    expect(new Set(ports).size).toBe(3);
  });

  it('runs further APIs on their own port, without a second e-learning or metrics listener, under their own names', () => {
    const env = { PORT: '8080', ELEARNING_PORT: '8081', METRICS_PORT: '9464', PORTAL_URL: 'http://127.0.0.1:8080' };
    expect(apiInstanceEnv(env, 0, 8080)).toEqual(env);
    expect(apiInstanceEnv(env, 1, 8082)).toEqual({ PORT: '8082', PORTAL_URL: 'http://127.0.0.1:8080' });
    expect([instanceName('api', 0), instanceName('api', 1), instanceName('worker', 1)]).toEqual([
      'api',
      'api-2',
      'worker-2',
    ]);
  });
});
