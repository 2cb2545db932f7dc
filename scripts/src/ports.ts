/**
 * Port plan of the local stack: fixed defaults (each overridable by an environment variable) or free
 * ports chosen by the kernel, for tests that run next to a developer's stack.
 */
import { freePort, isPortFree } from './net';
import type { StackEnv } from './config';

export type PortName =
  | 'portal'
  | 'temporal'
  | 'temporalUi'
  | 'temporalHttp'
  | 'temporalMetrics'
  | 'postgres'
  | 'ldap'
  | 'smtp'
  | 'mailUi'
  | 'demoSystem'
  | 'elearning'
  | 'demoScim'
  | 'metrics';
export type PortPlan = Record<PortName, number>;

/** Default port, overriding variable and description of each listener. */
export const PORTS: Record<PortName, { default: number; envVar: keyof StackEnv & string; what: string }> = {
  portal: { default: 8080, envVar: 'PORT', what: 'portal API and web app' },
  temporal: { default: 7233, envVar: 'TEMPORAL_PORT', what: 'Temporal frontend' },
  temporalUi: { default: 8233, envVar: 'TEMPORAL_UI_PORT', what: 'Temporal Web UI' },
  // Planned with the others: left to the dev server, its random choice once took a port planned for MailDev.
  temporalHttp: { default: 7243, envVar: 'TEMPORAL_HTTP_PORT', what: 'Temporal HTTP API' },
  temporalMetrics: { default: 7235, envVar: 'TEMPORAL_METRICS_PORT', what: 'Temporal metrics' },
  postgres: { default: 55432, envVar: 'POSTGRES_PORT', what: 'PostgreSQL' },
  ldap: { default: 3389, envVar: 'LDAP_PORT', what: 'OpenLDAP slapd' },
  smtp: { default: 1025, envVar: 'SMTP_PORT', what: 'SMTP catcher' },
  mailUi: { default: 1080, envVar: 'MAIL_UI_PORT', what: 'mail web UI' },
  // The demo study system (issue 22), a relying party of the portal's single sign-on, on http://127.0.0.1
  // (the portal is on localhost: another site).
  demoSystem: { default: 8090, envVar: 'DEMO_SYSTEM_PORT', what: 'demo study system (single sign-on)' },
  // E-learning packages (issue 23), served by the API on a second listener: a separate origin for their scripts.
  elearning: { default: 8081, envVar: 'ELEARNING_PORT', what: 'e-learning packages (the API, a separate origin)' },
  // The demo 'Laboratory Information System (demo)' (issue 41): scim2-server, the demo provisioning target.
  demoScim: { default: 8091, envVar: 'DEMO_SCIM_PORT', what: 'demo laboratory system (SCIM 2.0 target)' },
  // The API's /metrics and probes on a listener of their own, as production runs it (deploy/README.md).
  metrics: { default: 9464, envVar: 'METRICS_PORT', what: 'API /metrics (Prometheus text)' },
};

/**
 * Chooses the stack's ports. With 'default', each is its variable's value or the default, and those in
 * `needed` must be free; with 'random', each is a distinct free port.
 * @throws Error naming every busy port with the variable that moves it.
 */
export async function planPorts(mode: 'default' | 'random', env: StackEnv, needed: Set<PortName>): Promise<PortPlan> {
  const names = Object.keys(PORTS) as PortName[];
  const plan = {} as PortPlan;
  if (mode === 'random') {
    const taken = new Set<number>();
    for (const name of names) {
      let p = await freePort();
      while (taken.has(p)) p = await freePort();
      taken.add(p);
      plan[name] = p;
    }
    return plan;
  }
  const busy: string[] = [];
  for (const name of names) {
    const spec = PORTS[name];
    const fromEnv = env[spec.envVar];
    plan[name] = typeof fromEnv === 'number' ? fromEnv : spec.default;
    if (needed.has(name) && !(await isPortFree(plan[name]))) {
      busy.push(
        `  port ${plan[name]} (${spec.what}) is already in use: stop what listens there or set ${spec.envVar}=<port>`,
      );
    }
  }
  if (busy.length) throw new Error(`Cannot start the local stack:\n${busy.join('\n')}`);
  return plan;
}
