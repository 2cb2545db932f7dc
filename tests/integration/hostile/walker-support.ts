/**
 * What the hostile-input route walker stands on: its own copy of the seeded database (a PostgreSQL
 * TEMPLATE clone, dropped afterwards, so nothing it writes reaches the other test files), throwaway personas
 * (a fresh user with a directory entry per permission level; the demo accounts are never touched), a log of
 * every row written (to prove a refused request wrote nothing) and the leak check of answer bodies.
 */
import crypto from 'node:crypto';
import { createPrisma, type PrismaClient } from '@portal/db';
import { createTestUser, type TestUser } from '../auth-helpers';
import { stackEnv } from '../fixtures';
import { signInCall, type Session } from '../harness';
import type { FastifyInstance } from 'fastify';

const withDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * Clones the test stack's seeded database into a new one. @returns its URL and the function dropping it.
 * It copies the pristine template the global setup made of the seeded database, not the database the other
 * test files use: TEMPLATE needs its source idle, and no one ever connects to the template.
 */
export async function cloneDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const source = stackEnv().DATABASE_URL!;
  const template = stackEnv().DATABASE_TEMPLATE;
  if (!template) throw new Error('the global setup provided no DATABASE_TEMPLATE to clone');
  const name = `hostile_${crypto.randomBytes(4).toString('hex')}`;
  const admin = createPrisma(withDatabase(source, 'postgres'));
  try {
    await admin.$executeRawUnsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } catch (err) {
    await admin.$disconnect();
    throw err;
  }
  return {
    url: withDatabase(source, name),
    drop: async () => {
      await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.$disconnect();
    },
  };
}

/**
 * Tables a refused request may legitimately touch: sessions slide on every secure call, a failed sign-in
 * of an unknown name is counted (issue 13), and the rate limits count every attempt, refused or not, in
 * PostgreSQL (issue 24). Everything else must be byte-for-byte unchanged.
 */
const MAY_CHANGE = new Set(['Session', 'UnknownSignInFailure', 'RateLimit', '_prisma_migrations']);

/** The change log's table in the walker's clone; its own writes are not watched. */
const CHANGE_LOG = '_walker_change_log';

/** Where the change log stood before a request: the transactions committed by then. */
export type ChangeMark = string;

/** Finds which tables a request changed, from the change log `watchChanges` installs. */
export interface ChangeWatch {
  /** The log's position now (take it right before the request). */
  mark: () => Promise<ChangeMark>;
  /** The tables (outside those a refused request may touch) with a row written since `mark`, sorted. */
  changedSince: (mark: ChangeMark) => Promise<string[]>;
}

/**
 * Installs, in the walker's OWN clone (never the shared database), a trigger on every table but MAY_CHANGE
 * that logs each row inserted, deleted or changed, and each TRUNCATE, with the writing transaction's id.
 * Comparing two digests of every row per request cost most of the walk; the log answers the same question
 * (did any row outside MAY_CHANGE change between two moments) in one indexed read. An UPDATE that leaves
 * the row's text as it was is not logged, as a digest of the rows' text would not have seen it. A change
 * counts when its transaction was not yet committed at `mark`, whatever its order of id: what a digest
 * taken at `mark` would not have held and one taken now would. Rolled-back writes leave no log row. It is
 * stricter than a digest in two ways only: a committed write undone later in the window, and a TRUNCATE of
 * an empty table, are changes too.
 */
export async function watchChanges(prisma: PrismaClient): Promise<ChangeWatch> {
  const tables = await prisma.$queryRaw<Array<{ name: string }>>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;
  await prisma.$executeRawUnsafe(
    `CREATE TABLE "${CHANGE_LOG}" (tbl text NOT NULL, op text NOT NULL, xid xid8 NOT NULL DEFAULT pg_current_xact_id())`,
  );
  await prisma.$executeRawUnsafe(`CREATE INDEX ON "${CHANGE_LOG}" (xid)`);
  await prisma.$executeRawUnsafe(`
    CREATE FUNCTION "${CHANGE_LOG}_write"() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD::text IS NOT DISTINCT FROM NEW::text THEN
        RETURN NULL;
      END IF;
      INSERT INTO "${CHANGE_LOG}" (tbl, op) VALUES (TG_TABLE_NAME, TG_OP);
      RETURN NULL;
    END
    $fn$`);
  for (const { name } of tables.filter((t) => !MAY_CHANGE.has(t.name))) {
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER "${CHANGE_LOG}_rows" AFTER INSERT OR UPDATE OR DELETE ON "${name}"
       FOR EACH ROW EXECUTE FUNCTION "${CHANGE_LOG}_write"()`,
    );
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER "${CHANGE_LOG}_truncate" AFTER TRUNCATE ON "${name}"
       FOR EACH STATEMENT EXECUTE FUNCTION "${CHANGE_LOG}_write"()`,
    );
  }
  return {
    mark: async () =>
      (await prisma.$queryRaw<Array<{ snapshot: string }>>`SELECT pg_current_snapshot()::text AS snapshot`)[0]!
        .snapshot,
    changedSince: async (mark) =>
      (
        await prisma.$queryRawUnsafe<Array<{ tbl: string }>>(
          `SELECT DISTINCT tbl FROM "${CHANGE_LOG}"
           WHERE xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot)
           ORDER BY tbl`,
          mark,
        )
      ).map((r) => r.tbl),
  };
}

/** A stack frame, a file path of the server, or a raw database or directory error in an answer. */
const LEAKS = [
  /\bat [\w$.<>]+ \(?[^\s)]*\.(ts|js|mjs|cjs):\d+:\d+/,
  /\/work\/|node_modules\/|file:\/\//,
  /"stack"\s*:/,
  /Invalid `[\w.]+\(\)` invocation|PrismaClient\w*Error|\bP20\d\d\b/,
  /invalid byte sequence|unsupported Unicode escape|LDAPResult|InvalidDNSyntax/i,
];

/** The first leak pattern a body matches, or null. */
export const leakIn = (body: string): RegExp | null => LEAKS.find((re) => re.test(body)) ?? null;

/** The permission levels the walker acts as, by portal role (prisma/seed/reference.ts). */
export const PERSONA_ROLES = {
  user: ['Network User'],
  readonly: ['User Support Read-Only', 'Network User'],
  reviewer: ['User Support', 'Network User'],
  admin: ['Administrator', 'Network User'],
} as const;
export type PersonaName = keyof typeof PERSONA_ROLES | 'anonymous';

export interface Persona {
  name: PersonaName;
  user: TestUser | null;
  session: Session | null;
}

/**
 * Throwaway personas: one user per permission level, signed in; `fresh` replaces one whose session or
 * account a destructive call has used up (signed out, locked, password changed).
 */
export function personaPool(
  app: FastifyInstance,
  prisma: PrismaClient,
  directory: Parameters<typeof createTestUser>[0]['directory'],
) {
  const current = new Map<PersonaName, Persona>();
  const create = async (name: PersonaName): Promise<Persona> => {
    if (name === 'anonymous') return { name, user: null, session: null };
    const user = await createTestUser({ prisma, directory }, `hx${name.slice(0, 3)}`, {
      roles: [...PERSONA_ROLES[name]],
    });
    const res = await signInCall(app, user.username, user.password);
    if (res.statusCode !== 200) throw new Error(`persona ${name} could not sign in: ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'pg_session')!;
    const persona = {
      name,
      user,
      session: { cookie: `pg_session=${cookie.value}`, xsrf: res.json().xsrfToken, body: res.json() },
    };
    current.set(name, persona);
    return persona;
  };
  return {
    /** The persona's current user and session (created on first use). */
    get: async (name: PersonaName): Promise<Persona> => current.get(name) ?? create(name),
    /** A new user for `name` (after a destructive call may have used the last one up). */
    fresh: (name: PersonaName): Promise<Persona> => create(name),
  };
}
