/**
 * What storing passwords with Argon2id costs (docs/decisions.md "Passwords stored with Argon2id"), beside the
 * {SSHA} it replaces, measured in the same run on the bench stack's slapd:
 * - one hash in the portal (p50 of `HASHES`): argon2id at the configured cost beside {SSHA};
 * - binds per second on slapd (`CONCURRENCY` binds in flight for `SECONDS`): an entry stored as argon2id beside
 *   one stored as {SSHA} (slapd verifies on its own threads, so this is what the directory can take);
 * - successful sign-ins per second through the API (the same concurrency), a person stored as argon2id.
 * Printed only: the machine's two cores are shared by slapd, the API and the load. Alone:
 *
 *   cd tests && npx tsx --conditions=development bench/password-hashing.ts
 */
import crypto from 'node:crypto';
import { Attribute, Change } from 'ldapts';
import {
  type DirectoryConfig,
  DirectoryConfigSchema,
  addPerson,
  argon2Hash,
  argon2ParamsOf,
  bindAsUser,
  sshaHash,
  userDn,
  withAdmin,
} from '@portal/directory';
import pg from 'pg';
import { poolConfigFromUrl } from '@portal/db';
import type { ThrowawayStack } from '../support/throwaway-stack';
import { runAlone } from './stack';
import { median } from './timing';

const HASHES = 30;
const CONCURRENCY = 8;
const SECONDS = 5;
/**
 * Sign-ins are rate-limited per client address and username (RATE_LIMIT_SIGN_IN_MAX, 10 a minute): the
 * sign-ins go round SIGN_IN_PEOPLE people, each signed in at most SIGN_INS_EACH times.
 */
const SIGN_IN_PEOPLE = 40;
const SIGN_INS_EACH = 9;

export interface PasswordHashingFigures {
  argon2idHashP50Ms: number;
  sshaHashP50Ms: number;
  argon2idBindsPerSecond: number;
  sshaBindsPerSecond: number;
  argon2idSignInsPerSecond: number;
}

/**
 * How many times `once` completes per second with CONCURRENCY calls in flight for SECONDS (or until `max`
 * calls were made).
 */
async function perSecond(once: (n: number) => Promise<void>, max = Infinity): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let begun = 0;
  let done = 0;
  const lane = async () => {
    while (performance.now() < until && begun < max) {
      await once(begun++);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return done / ((performance.now() - started) / 1000);
}

/** A fresh person entry whose stored password is `stored(password)`; @returns its username, DN and password. */
async function person(directory: DirectoryConfig, tag: string, stored: (password: string) => Promise<string>) {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = `hash${tag}${suffix}`;
  const password = `Pw-${suffix}-Aa1!xyz`;
  await addPerson(directory, {
    username,
    firstName: 'Hash',
    lastName: tag,
    email: `${username}@bench.portal.test`,
    gecos: '',
    uidNumber: 71_000 + Math.floor(Math.random() * 1000),
  });
  const dn = userDn(directory, username);
  const values = [await stored(password)];
  await withAdmin(directory, (c) =>
    c.modify(dn, new Change({ operation: 'replace', modification: new Attribute({ type: 'userPassword', values }) })),
  );
  return { username, dn, password };
}

/** Signs `username` in through the API at `base`. @throws unless it answered 200. */
async function signInOnce(base: string, username: string, password: string): Promise<void> {
  const res = await fetch(`${base}/rest/token/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`sign-in of ${username} answered ${res.status}`);
}

/** Measures the figures above on the bench stack `stack` (its slapd, its API, its PostgreSQL for the users). */
export async function measurePasswordHashing(stack: ThrowawayStack): Promise<PasswordHashingFigures> {
  const db = new pg.Pool({ ...poolConfigFromUrl(stack.urls.database), max: 2 });
  try {
    return await measure({
      directory: DirectoryConfigSchema.parse(stack.portalEnv),
      signIn: (username, password) => signInOnce(stack.urls.portal, username, password),
      portalUser: async (username) => {
        await db.query(
          `INSERT INTO "PortalUser" ("username", "firstName", "lastName", "email", "updatedAt")
           VALUES ($1::text, 'Hash', 'Bench', $1::text || '@bench.portal.test', now())`,
          [username],
        );
      },
    });
  } finally {
    await db.end();
  }
}

async function measure(opts: {
  directory: DirectoryConfig;
  signIn(username: string, password: string): Promise<void>;
  portalUser(username: string): Promise<void>;
}): Promise<PasswordHashingFigures> {
  const params = argon2ParamsOf(opts.directory);
  const argon2Ms: number[] = [];
  const sshaMs: number[] = [];
  for (let i = 0; i < HASHES; i++) {
    let t = performance.now();
    await argon2Hash(`password-${i}`, params);
    argon2Ms.push(performance.now() - t);
    t = performance.now();
    sshaHash(`password-${i}`);
    sshaMs.push(performance.now() - t);
  }
  const argon2 = await person(opts.directory, 'a', (p) => argon2Hash(p, params));
  const ssha = await person(opts.directory, 's', async (p) => sshaHash(p));
  const bind = (who: { dn: string; password: string }) => async () => {
    const outcome = await bindAsUser(opts.directory, who.dn, who.password);
    if (!outcome.ok) throw new Error(`bind as ${who.dn} refused`);
  };
  const argon2idBindsPerSecond = await perSecond(bind(argon2));
  const sshaBindsPerSecond = await perSecond(bind(ssha));
  const people: Array<{ username: string; password: string }> = [];
  for (let i = 0; i < SIGN_IN_PEOPLE; i++) {
    const who = await person(opts.directory, 'i', (p) => argon2Hash(p, params));
    await opts.portalUser(who.username);
    people.push(who);
  }
  const argon2idSignInsPerSecond = await perSecond((n) => {
    const who = people[n % people.length]!;
    return opts.signIn(who.username, who.password);
  }, SIGN_IN_PEOPLE * SIGN_INS_EACH);
  return {
    argon2idHashP50Ms: median(argon2Ms),
    sshaHashP50Ms: median(sshaMs),
    argon2idBindsPerSecond,
    sshaBindsPerSecond,
    argon2idSignInsPerSecond,
  };
}

runAlone(import.meta.url, 'password-hashing', measurePasswordHashing, (figures) => ({ ...figures, missed: [] }));
