/**
 * `npm run up` (scripts/up.sh after scripts/install.sh): the whole product on this machine, in the
 * project's data folder (.data/dev, reused by the next start), until Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError } from './config';
import { parseInstances } from './instances';
import { AUDIT_VERIFY_FILE, repoPath } from './paths';
import { type Stack, startStack } from './stack';
import { describeExit } from './supervisor';

const USAGE = `Usage: npm run up [-- --data-dir <dir>] [--random-ports] [--no-seed] [--no-apps] [--instances <n>]

Starts PostgreSQL, Temporal (dev server + Web UI), OpenLDAP, the mail catcher, the worker, the API (the portal on
http://localhost), the demo study system (on http://127.0.0.1, another site) and the demo laboratory system's
SCIM 2.0 target (scim2-server, provisioned by the worker). --no-apps: only the services, for
running the worker and the API yourself with the printed environment. --instances <n> (default 1) runs n API
processes, each on its own port (PORT, then the next free ones) and all serving the web app, and n workers, on the
one PostgreSQL and Temporal.
A worker or API that dies is restarted (1 s doubling to 30 s); a service that dies stops everything.
Uses existing services instead when DATABASE_URL, TEMPORAL_ADDRESS, LDAP_URL (+ LDAP_ADMIN_PASSWORD) or
SMTP_URL are set. Ports: PORT, TEMPORAL_PORT, TEMPORAL_UI_PORT, POSTGRES_PORT, LDAP_PORT, SMTP_PORT, MAIL_UI_PORT,
DEMO_SYSTEM_PORT, DEMO_SCIM_PORT (the demo laboratory system's SCIM target), METRICS_PORT (the API's /metrics, as production serves it).`;

const DemoAccounts = z.array(
  z.object({
    persona: z.string(),
    username: z.string(),
    password: z.string(),
    permissions: z.array(z.string()).optional(),
    portalRoles: z.array(z.string()).optional(),
  }),
);

/** The demo accounts exported by the seed (@portal/db/seed), or null when it has none yet. */
async function demoAccounts(): Promise<z.infer<typeof DemoAccounts> | null> {
  const specifier = '@portal/db/seed';
  try {
    const mod = (await import(specifier)) as { DEMO_ACCOUNTS?: unknown };
    const parsed = DemoAccounts.safeParse(mod.DEMO_ACCOUNTS);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => ('  ' + r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).trimEnd()).join('\n');
}

async function printBanner(stack: Stack, dataDir: string): Promise<void> {
  const accounts = await demoAccounts();
  const lines = [
    '',
    'Portal Gateway is up',
    table([
      ['Portal', stack.urls.portal],
      // Further API processes (--instances): the same portal, each process on its own port.
      ...(stack.urls.portals ?? []).slice(1).map((url, i) => [`Portal (API ${i + 2})`, url]),
      ...(stack.urls.demoSystem ? [['Demo study system', stack.urls.demoSystem]] : []),
      // Its bearer token is secrets.json's demoScimToken (README "Provisioning (SCIM 2.0)").
      ...(stack.urls.demoScim ? [['Demo lab system (SCIM)', stack.urls.demoScim]] : []),
      ...(stack.urls.metrics ? [['Metrics (API)', stack.urls.metrics]] : []),
      ['Temporal UI', stack.urls.temporalUi ?? '(external Temporal: set TEMPORAL_UI_URL)'],
      ['Mail (caught)', stack.urls.mailUi ?? '(external SMTP: set MAIL_UI_URL)'],
      ['Data folder', dataDir],
    ]),
    '',
    accounts
      ? 'Demo accounts:\n' +
        table([
          ['persona', 'username', 'password', 'roles / permissions'],
          ...accounts.map((a) => [
            a.persona,
            a.username,
            a.password,
            (a.permissions ?? a.portalRoles ?? []).join(', '),
          ]),
        ])
      : 'Demo accounts: not available yet (DEMO_ACCOUNTS is not exported by @portal/db/seed).',
    '',
    'Staff (admin, reviewer, readonly) take a second sign-in step: add the key PORTALGATEWAYDEMOSTAFFKEYTWOSTEP',
    "to an authenticator app, or run 'npm run demo:code' for the current code.",
    '',
    'Press Ctrl-C to stop everything.',
  ];
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'random-ports': { type: 'boolean' },
      'no-seed': { type: 'boolean' },
      'no-apps': { type: 'boolean' },
      instances: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = values['data-dir'] ?? repoPath('.data', 'dev');
  const apps = !values['no-apps'];
  const instances = parseInstances(values.instances);

  const shutDown = (code: number): void => {
    void stack.stop().finally(() => process.exit(code));
  };
  // The demo's staff use the documented authenticator app (README); the test stacks do not seed it.
  process.env.SEED_DEMO_SECOND_FACTORS ??= 'true';
  // The demo signs its access decisions (docs/decisions.md "Electronic signatures"); the test stacks do not.
  process.env.SIGNATURES ??= 'on';
  const stack = await startStack({
    dataDir,
    ports: values['random-ports'] ? 'random' : 'default',
    seed: !values['no-seed'],
    apps,
    instances,
    onUnexpectedExit: (name, info) => {
      // Only backing services land here: the worker and the API are restarted by their supervisors.
      console.error(`[stack] ${name} stopped unexpectedly (${describeExit(info)}): stopping all`);
      shutDown(1);
    },
  });
  // What `npm run audit:verify` needs to verify this stack's audit trail (no secret: the public key only).
  fs.writeFileSync(
    path.join(dataDir, AUDIT_VERIFY_FILE),
    `${JSON.stringify(
      {
        DATABASE_URL: stack.portalEnv.DATABASE_URL,
        AUDIT_SEAL_PUBLIC_KEYS: stack.portalEnv.AUDIT_SEAL_PUBLIC_KEYS,
        TEMPORAL_ADDRESS: stack.portalEnv.TEMPORAL_ADDRESS,
        TEMPORAL_NAMESPACE: stack.portalEnv.TEMPORAL_NAMESPACE ?? 'default',
      },
      null,
      2,
    )}\n`,
  );
  await printBanner(stack, dataDir);
  if (!apps) {
    const shown = {
      ...stack.portalEnv,
      LDAP_ADMIN_PASSWORD: '(see secrets.json)',
      SESSION_SECRET: '(see secrets.json)',
      MAIL_LINK_KEY: '(see secrets.json)',
      OIDC_KEY_ENCRYPTION_KEY: '(see secrets.json)',
      SECOND_FACTOR_KEY: '(see secrets.json)',
      CAPTCHA_HMAC_KEY: '(see secrets.json)',
      ELEARNING_URL_KEY: '(see secrets.json)',
      PROVISIONING_KEY: '(see secrets.json)',
      AUDIT_SEAL_PRIVATE_KEY: '(see secrets.json)',
    };
    console.log(
      `\nEnvironment for the worker and the API:\n${table(Object.entries(shown).map(([k, v]) => [k, v ?? '']))}`,
    );
  }
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || (err instanceof Error && !/^(TypeError|ReferenceError)$/.test(err.name));
  console.error(known ? `\n${(err as Error).message}` : err);
  process.exit(1);
});
