/**
 * `npm run up -- --instances N` (issue 24): N API processes and N workers on the stack's one PostgreSQL and
 * one Temporal. The first API keeps the planned portal port (PORT, 8080); each further one listens on a port
 * of its own, so a test or a person can call each process directly.
 */
import type { PortPlan } from './ports';
import { freePort, isPortFree } from './net';

/** The most instances `--instances` accepts: two shared cores run out long before. */
export const MAX_INSTANCES = 8;

/**
 * Parses `--instances` (default 1).
 * @throws Error naming the flag when the value is not a whole number from 1 to MAX_INSTANCES.
 */
export function parseInstances(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_INSTANCES) {
    throw new Error(`--instances must be a whole number from 1 to ${MAX_INSTANCES} (got ${JSON.stringify(value)})`);
  }
  return n;
}

/**
 * The API ports of `count` instances: the plan's portal port first, then, with 'default' ports, the next
 * ports above it that the plan gives nothing else (8082, 8083, ... beside the e-learning listener's 8081),
 * and with 'random' ports, free ones.
 * @throws Error naming a busy port and the variable that moves the range.
 */
export async function apiPorts(mode: 'default' | 'random', plan: PortPlan, count: number): Promise<number[]> {
  const planned = new Set(Object.values(plan));
  const ports = [plan.portal];
  let candidate = plan.portal;
  while (ports.length < count) {
    if (mode === 'random') {
      const p = await freePort();
      if (!planned.has(p) && !ports.includes(p)) ports.push(p);
      continue;
    }
    candidate += 1;
    if (planned.has(candidate)) continue;
    if (!(await isPortFree(candidate))) {
      throw new Error(
        `Cannot start API instance ${ports.length + 1}: port ${candidate} is already in use ` +
          `(further API instances listen on the ports after PORT=${plan.portal}; set PORT to move them)`,
      );
    }
    ports.push(candidate);
  }
  return ports;
}

/**
 * The environment of API instance `index` (0-based) listening on `port`. Every instance shares the first one's
 * public URL (PORTAL_URL: the links in mail and the single sign-on issuer name one portal, as a load
 * balancer's address would) and e-learning origin: only the first opens the e-learning listener, whose signed
 * paths any instance can make (the key is shared), and the /metrics listener.
 */
export function apiInstanceEnv(env: NodeJS.ProcessEnv, index: number, port: number): NodeJS.ProcessEnv {
  if (index === 0) return env;
  const next: NodeJS.ProcessEnv = { ...env, PORT: String(port) };
  delete next.ELEARNING_PORT;
  delete next.METRICS_PORT;
  return next;
}

/** The supervisor's name of instance `index` of `kind`: 'api', 'api-2', ... (the first keeps the plain name). */
export const instanceName = (kind: 'api' | 'worker', index: number): string =>
  index === 0 ? kind : `${kind}-${index + 1}`;
