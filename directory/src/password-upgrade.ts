/**
 * Re-hashing a person's stored password in the current form (argon2id at the configured cost, password.ts)
 * while the plaintext is in hand: after a successful sign-in, and after the person's own change (which slapd
 * hashes itself, as argon2i). It is not a password change (docs/decisions.md "Passwords stored with
 * Argon2id"): one modify as the directory admin with the Relax control swaps the userPassword value only and
 * writes back pwdChangedTime, pwdHistory, pwdReset and pwdGraceUseTime exactly as they were, so the age, the
 * forced change, the grace sign-ins and the history are untouched, and no old value enters pwdHistory.
 *
 * The old value is removed by value (an LDAP delete of that exact value), so a change the person made since the
 * read makes the whole modify fail and nothing is written: the newer password is never replaced by this one.
 */
import { Attribute, Change, Control, NoSuchAttributeError } from 'ldapts';
import { withAdmin } from './client';
import type { DirectoryConfig } from './config';
import { argon2Hash, argon2ParamsOf, isCurrentHash, verifyPasswordHash } from './password';

/** OpenLDAP's relax control: lets the admin write the NO-USER-MODIFICATION password policy attributes. */
const RELAX = '1.3.6.1.4.1.4203.666.5.12';

/** The attributes the swap writes back as they were. */
const KEPT = ['pwdChangedTime', 'pwdHistory', 'pwdReset', 'pwdGraceUseTime'] as const;

/**
 * What the upgrade did: `upgraded`; `current` (already argon2id at the configured cost); `none` (the entry has
 * no password); `changed` (the stored value is no longer this password: changed meanwhile, left as it is).
 */
export type UpgradeOutcome = 'upgraded' | 'current' | 'none' | 'changed';

const change = (operation: 'add' | 'delete' | 'replace', type: string, values: string[]) =>
  new Change({ operation, modification: new Attribute({ type, values }) });

const values = (v: unknown): string[] => ([] as unknown[]).concat(v ?? []).map((x) => String(x));

/**
 * Re-hashes the password of the entry `dn` with `password` (which the caller has just verified, by a bind or
 * a change) when its stored value is not argon2id at `cfg`'s cost. @throws on an unreachable directory.
 */
export async function upgradePasswordHash(cfg: DirectoryConfig, dn: string, password: string): Promise<UpgradeOutcome> {
  const params = argon2ParamsOf(cfg);
  return withAdmin(cfg, async (c) => {
    const { searchEntries } = await c.search(dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ['userPassword', ...KEPT],
    });
    const entry = searchEntries[0];
    const stored = values(entry?.['userPassword']);
    if (!entry || stored.length === 0) return 'none';
    if (stored.every((v) => isCurrentHash(v, params))) return 'current';
    const matches = await Promise.all(stored.map((v) => verifyPasswordHash(password, v)));
    if (!matches.some(Boolean)) return 'changed';
    const next = await argon2Hash(password, params);
    try {
      await c.modify(
        dn,
        [
          change('delete', 'userPassword', stored),
          change('add', 'userPassword', [next]),
          ...KEPT.map((type) => change('replace', type, values(entry[type]))),
        ],
        new Control(RELAX, { critical: true }),
      );
    } catch (err) {
      if (err instanceof NoSuchAttributeError) return 'changed';
      throw err;
    }
    return 'upgraded';
  });
}
