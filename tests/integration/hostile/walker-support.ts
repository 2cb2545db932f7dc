/**
 * What the hostile-input route walker stands on: its own copy of the seeded database (a PostgreSQL
 * TEMPLATE clone, dropped afterwards, so nothing it writes reaches the other test files), throwaway personas
 * (a fresh user with a directory entry per permission level; the demo accounts are never touched), a
 * fingerprint of every table (to prove a refused request wrote nothing) and the leak check of answer bodies.
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
 * The clone waits while another file's connections are still closing (TEMPLATE needs the source idle).
 */
export async function cloneDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const source = stackEnv().DATABASE_URL!;
  const sourceName = new URL(source).pathname.slice(1);
  const name = `hostile_${crypto.randomBytes(4).toString('hex')}`;
  const admin = createPrisma(withDatabase(source, 'postgres'));
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.$executeRawUnsafe(`CREATE DATABASE "${name}" TEMPLATE "${sourceName}"`);
      break;
    } catch (err) {
      if (attempt >= 30) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
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

/** A digest of every row of every table, by table. */
export async function fingerprint(prisma: PrismaClient): Promise<Record<string, string>> {
  const tables = await prisma.$queryRaw<Array<{ name: string }>>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;
  const parts = tables
    .filter((t) => !MAY_CHANGE.has(t.name))
    .map(
      (t) =>
        `SELECT '${t.name}' AS name, count(*)::int || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM "${t.name}" x`,
    );
  const rows = await prisma.$queryRawUnsafe<Array<{ name: string; digest: string }>>(parts.join(' UNION ALL '));
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

/** The tables whose fingerprint differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>): string[] =>
  Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);

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
