/**
 * Writing a person's name, email, username and gecos to their directory entry (000 §5 internal users: an
 * administrator's change is written to the entry before the portal user). Compare, then set: only the
 * attributes that differ are written, so a retry after a failure further on writes nothing new. A changed
 * username renames the entry (its RDN is `uid`). All writes bind as the directory administrator.
 */
import { Attribute, Change, type Entry } from 'ldapts';
import { firstValue } from './entry';
import { withAdmin } from './client';
import { type DirectoryConfig, escapeDnValue, escapeFilterValue, peopleDn } from './config';

/** The directory fields of a portal user (the entry's uid, givenName, sn, mail and gecos). */
export interface PersonFields {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  gecos: string;
}

/** Why the entry could not take the fields; never succeeds on retry. */
export class PersonFieldsConflictError extends Error {
  constructor(readonly reason: 'entryNotFound' | 'usernameTaken' | 'emailTaken') {
    super(`directory entry not updated: ${reason}`);
    this.name = 'PersonFieldsConflictError';
  }
}

const ATTRIBUTES = ['entryUUID', 'uid', 'givenName', 'sn', 'mail', 'gecos', 'cn'];

/** The fields as the entry holds them, or null when no entry has that entryUUID. */
export async function readPersonFields(cfg: DirectoryConfig, uuid: string): Promise<PersonFields | null> {
  return withAdmin(cfg, async (c) => {
    const { searchEntries } = await c.search(peopleDn(cfg), {
      scope: 'one',
      filter: `(&(objectClass=inetOrgPerson)(entryUUID=${escapeFilterValue(uuid)}))`,
      attributes: ATTRIBUTES,
      sizeLimit: 2,
    });
    const e = searchEntries[0];
    if (searchEntries.length !== 1 || !e) return null;
    return {
      username: firstValue(e, 'uid'),
      firstName: firstValue(e, 'givenName'),
      lastName: firstValue(e, 'sn'),
      email: firstValue(e, 'mail'),
      gecos: firstValue(e, 'gecos'),
    };
  });
}

/**
 * Sets the entry with entryUUID `uuid` to `next`, writing only what differs.
 * @returns the names of the attributes written (empty when the entry already matched).
 * @throws PersonFieldsConflictError when the entry is gone, or another entry holds the username or email
 *   (sign-in looks people up by either, so both must stay unique in the directory).
 */
export async function writePersonFields(cfg: DirectoryConfig, uuid: string, next: PersonFields): Promise<string[]> {
  return withAdmin(cfg, async (c) => {
    const find = async (filter: string) =>
      (
        await c.search(peopleDn(cfg), {
          scope: 'one',
          filter: `(&(objectClass=inetOrgPerson)${filter})`,
          attributes: ATTRIBUTES,
          sizeLimit: 5,
        })
      ).searchEntries;
    const [entry] = await find(`(entryUUID=${escapeFilterValue(uuid)})`);
    if (!entry) throw new PersonFieldsConflictError('entryNotFound');
    const others = (found: Entry[]) => found.some((e) => firstValue(e, 'entryUUID') !== uuid);
    if (others(await find(`(uid=${escapeFilterValue(next.username)})`))) {
      throw new PersonFieldsConflictError('usernameTaken');
    }
    if (others(await find(`(mail=${escapeFilterValue(next.email)})`))) {
      throw new PersonFieldsConflictError('emailTaken');
    }

    const written: string[] = [];
    let dn = entry.dn;
    if (firstValue(entry, 'uid') !== next.username) {
      await c.modifyDN(dn, `uid=${escapeDnValue(next.username)}`);
      dn = `uid=${escapeDnValue(next.username)},${peopleDn(cfg)}`;
      written.push('uid');
    }
    const wanted: Record<string, string> = {
      givenName: next.firstName,
      sn: next.lastName,
      cn: `${next.firstName} ${next.lastName}`,
      mail: next.email,
      gecos: next.gecos || `${next.firstName} ${next.lastName}`,
    };
    const changes = Object.entries(wanted)
      .filter(([type, value]) => firstValue(entry, type) !== value)
      .map(
        ([type, value]) => new Change({ operation: 'replace', modification: new Attribute({ type, values: [value] }) }),
      );
    if (changes.length) {
      await c.modify(dn, changes);
      written.push(...changes.map((ch) => ch.modification.type));
    }
    return written;
  });
}
