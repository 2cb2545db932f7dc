/**
 * The sign-in timing entry (issue 13, docs/decisions.md "Sign-in tells no accounts apart"): when a sign-in
 * names no account, the portal still binds, against this entry, so an unknown username costs the directory
 * the same work as a wrong password for a real one (a search, a bind that compares a salted hash and records
 * a failure, a second search). The entry sits outside ou=people, so no look-up finds it and nobody can sign
 * in as it; its password is random and never kept. Its hash is argon2id at the configured cost, re-hashed at
 * start-up when the cost changed (or it was written before, as {SSHA}), so the bind costs what a person's does.
 */
import crypto from 'node:crypto';
import type { Client, Entry } from 'ldapts';
import { Attribute, Change, InvalidCredentialsError } from 'ldapts';
import { newClient, withAdmin } from './client';
import type { DirectoryConfig } from './config';
import { argon2Hash, argon2ParamsOf, isCurrentHash } from './password';

/** DN of the timing entry: `cn=sign-in-timing,<base>`. */
export const timingEntryDn = (cfg: DirectoryConfig): string => `cn=sign-in-timing,${cfg.LDAP_BASE_DN}`;

/**
 * Creates the timing entry when missing, or re-hashes its password when it is not argon2id at `cfg`'s cost
 * (idempotent; ensureTree calls it, so does the API at start-up). @returns what it did.
 */
export async function ensureTimingEntry(
  cfg: DirectoryConfig,
  client?: Client,
): Promise<'created' | 'rehashed' | 'current'> {
  const run = async (c: Client): Promise<'created' | 'rehashed' | 'current'> => {
    const dn = timingEntryDn(cfg);
    const params = argon2ParamsOf(cfg);
    const { searchEntries } = await c
      .search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['userPassword'] })
      .catch(() => ({ searchEntries: [] as Entry[] }));
    const fresh = () => argon2Hash(crypto.randomBytes(32).toString('base64url'), params);
    if (searchEntries.length === 0) {
      await c.add(dn, {
        objectClass: ['top', 'device', 'simpleSecurityObject'],
        cn: 'sign-in-timing',
        description: 'Bound when a sign-in names no account, so that timing tells nothing (issue 13).',
        userPassword: await fresh(),
      });
      return 'created';
    }
    const stored = ([] as unknown[]).concat(searchEntries[0]!['userPassword'] ?? []).map(String);
    if (stored.length > 0 && stored.every((v) => isCurrentHash(v, params))) return 'current';
    await c.modify(
      dn,
      new Change({
        operation: 'replace',
        modification: new Attribute({ type: 'userPassword', values: [await fresh()] }),
      }),
    );
    return 'rehashed';
  };
  return client ? run(client) : withAdmin(cfg, run);
}

/**
 * Binds against the timing entry with `password`; the outcome is ignored (the entry's password is unknown).
 * @throws on a directory that cannot be reached, like a real bind (the caller answers unspecifiedFailure).
 */
export async function bindAsNobody(cfg: DirectoryConfig, password: string): Promise<void> {
  const client = newClient(cfg);
  try {
    await client.bind(timingEntryDn(cfg), password);
  } catch (err) {
    if (!(err instanceof InvalidCredentialsError)) throw err;
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
