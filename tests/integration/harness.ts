/**
 * The one API harness of the integration tests: the Fastify app built in-process on the shared test stack
 * (real PostgreSQL, slapd, MailDev, Temporal), sign-in, calls carrying the session cookie and the XSRF
 * header, and an in-process worker for tests that run workflows.
 */
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { buildServer, loadApiConfig, type ApiConfig, type Deps } from '@portal/api';
import type { PrismaClient } from '@portal/db';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import type { DirectoryConfig } from '@portal/directory';
import { type AuditSealSettings, type AuditVerifySettings, type PortalActivities, createWorker } from '@portal/worker';
import { type Tracing, workflowClientTracing } from '@portal/workflows/telemetry';
import { stackEnv, testMailSettings, testPrisma } from './fixtures';

export interface TestApi {
  app: FastifyInstance;
  deps: Deps;
  prisma: PrismaClient;
  cfg: ApiConfig;
  directory: DirectoryConfig;
  close(): Promise<void>;
}

/**
 * Builds the API on the test stack. `env` overrides variables (task queue, timeouts, rate limits, ...);
 * `prismaOverride` wraps the client (to inject faults). Temporal is connected lazily, on first use.
 * Load shedding is off unless `env` sets OVERLOAD_MAX_EVENT_LOOP_DELAY_MS (observability/readiness.test.ts):
 * the API built here shares its event loop with the test and its in-process worker (which bundles the
 * workflow code), and its CPU with the files running beside it, so the delay it would measure is theirs.
 */
export async function startApi(
  env: Record<string, string> = {},
  prismaOverride?: (p: PrismaClient) => PrismaClient,
): Promise<TestApi> {
  const prisma = testPrisma();
  const cfg = loadApiConfig({ ...stackEnv(), LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
  const connection = Connection.lazy({ address: cfg.TEMPORAL_ADDRESS });
  const deps: Deps = {
    cfg,
    prisma: prismaOverride ? prismaOverride(prisma) : prisma,
    // As api/src/main.ts: the tracing interceptors (no-op spans unless a test registers a tracer provider).
    temporal: new Client({
      connection,
      namespace: cfg.TEMPORAL_NAMESPACE,
      interceptors: { workflow: workflowClientTracing() },
    }),
    directory: cfg,
  };
  const app = await buildServer(deps);
  return {
    app,
    deps,
    prisma,
    cfg,
    directory: cfg,
    close: async () => {
      await app.close();
      await connection.close();
      await prisma.$disconnect();
    },
  };
}

/**
 * Runs a worker in-process on `taskQueue` (the API's TEMPORAL_TASK_QUEUE). `opts.prisma` replaces the API's
 * client (a faulty wrapper), `opts.overrides` single activities, `opts.smtpUrl` the mail server; the worker
 * has a directory (the registration's and profile change's outside effects) only when `opts.directory` is
 * given. @returns its stop function.
 */
export async function startWorker(
  api: TestApi,
  taskQueue: string,
  opts: {
    prisma?: PrismaClient;
    overrides?: Partial<PortalActivities>;
    smtpUrl?: string;
    directory?: DirectoryConfig;
    /** Where the worker's workflow spans go (tracing.test.ts). */
    tracing?: Tracing;
    /** The audit sealer's database and key (audit-trail/); without it the sealing step fails. */
    auditSeal?: AuditSealSettings;
    /** The audit verifier's database and public keys (audit-trail/integrity-api); without it verifying fails. */
    auditVerify?: AuditVerifySettings;
  } = {},
): Promise<() => Promise<void>> {
  const connection = await NativeConnection.connect({ address: api.cfg.TEMPORAL_ADDRESS });
  const worker = await createWorker({
    connection,
    namespace: api.cfg.TEMPORAL_NAMESPACE,
    taskQueue,
    prisma: opts.prisma ?? api.prisma,
    mail: { ...testMailSettings(), ...(opts.smtpUrl && { smtpUrl: opts.smtpUrl }) },
    directory: opts.directory,
    overrides: opts.overrides,
    workflowBundle: { codePath: stackEnv().WORKFLOW_BUNDLE! },
    sso: {
      keyEncryptionKey: api.cfg.OIDC_KEY_ENCRYPTION_KEY,
      issuer: `${api.cfg.PORTAL_URL.replace(/\/$/, '')}/oidc`,
      production: false,
    },
    tracing: opts.tracing,
    auditSeal: opts.auditSeal,
    auditVerify: opts.auditVerify,
    provisioning: { key: api.cfg.PROVISIONING_KEY },
    // The worker of a deployment reads the same environment as the API.
    proxyCommentMarker: api.cfg.PROXY_COMMENT_MARKER,
  });
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
    await connection.close();
  };
}

export interface Session {
  cookie: string;
  xsrf: string;
  /** The sign-in response body. */
  body: Record<string, unknown>;
}

/** The demo persona's password (prisma/seed). */
export const demoPassword = (username: string): string => {
  const found = DEMO_ACCOUNTS.find((a) => a.username === username);
  if (!found) throw new Error(`no demo account ${username}`);
  return found.password;
};

/** POST /rest/token/create. */
export function signInCall(app: FastifyInstance, username: string, password: string) {
  return app.inject({ method: 'POST', url: '/rest/token/create', payload: { username, password } });
}

/** Signs in (a demo persona unless `password` is given) and expects 200. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password = demoPassword(username),
): Promise<Session> {
  const res = await signInCall(app, username, password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
  return { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A call with the session cookie and, unless `opts.xsrf` is false, the XSRF header. */
export function caller(app: FastifyInstance) {
  return (
    s: Session | null,
    method: Method,
    url: string,
    payload?: unknown,
    opts: { xsrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (s) headers.cookie = s.cookie;
    if (s && opts.xsrf !== false) headers['x-xsrf-token'] = s.xsrf;
    return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  };
}
