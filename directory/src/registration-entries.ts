/**
 * The directory side of registrations (001 §2.4 LDAP Details, §3 LDAP match; REQUEST-LIFECYCLE rule 3):
 * - look-ups of possible matches by email and by person name (GET .../ldap/usersForEmail, usersForPersonName);
 * - the approval's entry: created under a stable key (`employeeNumber` = the registration's workflow id), so
 *   an approval retried after a crash finds the entry it made instead of making a second one; or an existing
 *   entry linked, compare-then-set (only a changed gecos is written).
 * All writes bind as the directory administrator.
 */
import { Attribute, Change, type Client } from 'ldapts';
import { type DirectoryIdentity, IDENTITY_ATTRIBUTES, identityOf } from './entry';
import { withAdmin } from './client';
import { type DirectoryConfig, escapeFilterValue, peopleDn, userDn } from './config';

/** A person entry as the review screen lists it (001 §3 LDAP match, without the portal's attachment flag). */
export type DirectoryMatch = DirectoryIdentity;

/** A username or entry the approval cannot use; never succeeds on retry. */
export class DirectoryConflictError extends Error {
  constructor(
    message: string,
    readonly reason: 'usernameTaken' | 'entryNotFound',
  ) {
    super(message);
    this.name = 'DirectoryConflictError';
  }
}

/** Matches are for a person to pick from: a short list, never the whole directory. */
const MATCH_LIMIT = 50;

async function searchPeople(client: Client, cfg: DirectoryConfig, filter: string): Promise<DirectoryMatch[]> {
  const { searchEntries } = await client.search(peopleDn(cfg), {
    scope: 'one',
    filter: `(&(objectClass=inetOrgPerson)${filter})`,
    attributes: IDENTITY_ATTRIBUTES,
    sizeLimit: MATCH_LIMIT,
  });
  return searchEntries.map(identityOf).sort((a, b) => a.username.localeCompare(b.username));
}

/** People whose mail equals `email` (case-insensitive, as LDAP compares mail). */
export async function findPeopleByEmail(cfg: DirectoryConfig, email: string): Promise<DirectoryMatch[]> {
  return withAdmin(cfg, (c) => searchPeople(c, cfg, `(mail=${escapeFilterValue(email)})`));
}

/** People whose surname and given name equal `lastName` and `firstName`. */
export async function findPeopleByName(
  cfg: DirectoryConfig,
  lastName: string,
  firstName: string,
): Promise<DirectoryMatch[]> {
  return withAdmin(cfg, (c) =>
    searchPeople(c, cfg, `(sn=${escapeFilterValue(lastName)})(givenName=${escapeFilterValue(firstName)})`),
  );
}

/** One person by entryUUID, or null. */
export async function findMatchByUuid(cfg: DirectoryConfig, uuid: string): Promise<DirectoryMatch | null> {
  const found = await withAdmin(cfg, (c) => searchPeople(c, cfg, `(entryUUID=${escapeFilterValue(uuid)})`));
  return found.length === 1 ? found[0]! : null;
}

/** Whether an entry with this username (uid) exists. */
export async function usernameExists(cfg: DirectoryConfig, username: string): Promise<boolean> {
  const found = await withAdmin(cfg, (c) => searchPeople(c, cfg, `(uid=${escapeFilterValue(username)})`));
  return found.length > 0;
}

export interface RegisteredPerson {
  /** Stable key of the request that creates the entry (the registration's workflow id). */
  key: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  gecos: string;
  uidNumber: number;
}

/**
 * Creates the entry of an approved registration, or finds the one an earlier attempt created under the same
 * key. The entry has no password: the person sets it through the emailed link.
 * @returns the entry's entryUUID and username.
 * @throws DirectoryConflictError('usernameTaken') when another entry holds the username.
 */
export async function ensureRegisteredEntry(cfg: DirectoryConfig, p: RegisteredPerson): Promise<DirectoryMatch> {
  return withAdmin(cfg, async (c) => {
    const mine = await searchPeople(c, cfg, `(employeeNumber=${escapeFilterValue(p.key)})`);
    if (mine[0]) return mine[0];
    if ((await searchPeople(c, cfg, `(uid=${escapeFilterValue(p.username)})`)).length > 0) {
      throw new DirectoryConflictError(`the username ${p.username} is already in use`, 'usernameTaken');
    }
    await c.add(userDn(cfg, p.username), {
      objectClass: ['top', 'inetOrgPerson', 'posixAccount'],
      uid: p.username,
      cn: `${p.firstName} ${p.lastName}`,
      givenName: p.firstName,
      sn: p.lastName,
      mail: p.email,
      gecos: p.gecos || `${p.firstName} ${p.lastName}`,
      employeeNumber: p.key,
      uidNumber: String(p.uidNumber),
      gidNumber: '10000',
      homeDirectory: `/home/${p.username}`,
    });
    const made = await searchPeople(c, cfg, `(employeeNumber=${escapeFilterValue(p.key)})`);
    return made[0]!;
  });
}

/**
 * Links an existing entry for an approval: compare, then set (only a gecos that differs is written, so a
 * retry writes nothing). @throws DirectoryConflictError('entryNotFound') when no entry has that uuid.
 */
export async function linkExistingEntry(cfg: DirectoryConfig, uuid: string, gecos: string): Promise<DirectoryMatch> {
  return withAdmin(cfg, async (c) => {
    const found = await searchPeople(c, cfg, `(entryUUID=${escapeFilterValue(uuid)})`);
    const entry = found[0];
    if (!entry) throw new DirectoryConflictError(`no directory entry ${uuid}`, 'entryNotFound');
    if (gecos && gecos !== entry.gecos) {
      await c.modify(
        entry.dn,
        new Change({ operation: 'replace', modification: new Attribute({ type: 'gecos', values: [gecos] }) }),
      );
      return { ...entry, gecos };
    }
    return entry;
  });
}

/** The entry a registration created under `key` (its workflow id), or null: a linked entry never carries it. */
export async function findRegisteredEntry(cfg: DirectoryConfig, key: string): Promise<DirectoryMatch | null> {
  const found = await withAdmin(cfg, (c) => searchPeople(c, cfg, `(employeeNumber=${escapeFilterValue(key)})`));
  return found[0] ?? null;
}

/**
 * Removes the entry a registration created under `key`, undoing its approval's effect (issue 21 cases 2 and 3).
 * An entry the registration merely linked has no such key and is never touched. Idempotent.
 * @returns the removed entry, or null when there was none.
 */
export async function removeRegisteredEntry(cfg: DirectoryConfig, key: string): Promise<DirectoryMatch | null> {
  return withAdmin(cfg, async (c) => {
    const mine = (await searchPeople(c, cfg, `(employeeNumber=${escapeFilterValue(key)})`))[0];
    if (mine) await c.del(mine.dn);
    return mine ?? null;
  });
}
