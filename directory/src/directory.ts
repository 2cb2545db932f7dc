/**
 * Directory operations on OpenLDAP (or any LDAP) through ldapts: the portal binds as the user to sign in
 * (000 §4 Sign-in) and uses the admin DN for look-ups and provisioning.
 */
import { Attribute, Change, type Client, InvalidCredentialsError, type Entry } from 'ldapts';
import { type DirectoryIdentity, IDENTITY_ATTRIBUTES, firstValue, identityOf } from './entry';
import { newClient, withAdmin } from './client';
import { type DirectoryConfig, defaultPolicyDn, escapeFilterValue, peopleDn, policiesDn, userDn } from './config';
import { type Argon2Params, argon2Hash, argon2ParamsOf, isCurrentHash } from './password';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy, policyAttributes, readPolicy } from './policy';
import { parseGeneralizedTime } from './time';
import { ensureTimingEntry } from './timing';

export interface DirectoryPerson extends DirectoryIdentity {
  uidNumber: number | null;
  /** ppolicy: set while the account is locked after too many failures. */
  lockedTime: string | null;
  /** ppolicy: consecutive failed binds recorded (pwdFailureTime values). */
  failureCount: number;
  /** ppolicy: when the password was last set (pwdChangedTime); null when never. */
  changedTime: Date | null;
  /** ppolicy: pwdReset, an administrator set the password and pwdMustChange is on. */
  mustChange: boolean;
  /** ppolicy: grace sign-ins used since the password expired (pwdGraceUseTime values). */
  graceUses: number;
  /**
   * The stored password is not argon2id at the configured cost (an {SSHA} value written before, slapd's argon2i
   * of an own change, an older cost): re-hashed at the next successful sign-in (password-upgrade.ts). The
   * value itself is read only to decide this, never kept.
   */
  passwordNeedsRehash: boolean;
}

const PERSON_ATTRIBUTES = [
  ...IDENTITY_ATTRIBUTES,
  'uidNumber',
  'pwdAccountLockedTime',
  'pwdFailureTime',
  'pwdChangedTime',
  'pwdReset',
  'pwdGraceUseTime',
  'userPassword',
];

function toPerson(entry: Entry, params: Argon2Params): DirectoryPerson {
  const uidNumber = firstValue(entry, 'uidNumber');
  const stored = ([] as unknown[]).concat(entry['userPassword'] ?? []).map(String);
  return {
    ...identityOf(entry),
    uidNumber: uidNumber ? Number(uidNumber) : null,
    lockedTime: firstValue(entry, 'pwdAccountLockedTime') || null,
    failureCount: ([] as unknown[]).concat(entry['pwdFailureTime'] ?? []).length,
    changedTime: parseGeneralizedTime(firstValue(entry, 'pwdChangedTime')),
    mustChange: firstValue(entry, 'pwdReset') === 'TRUE',
    graceUses: ([] as unknown[]).concat(entry['pwdGraceUseTime'] ?? []).length,
    passwordNeedsRehash: stored.length > 0 && !stored.every((v) => isCurrentHash(v, params)),
  };
}

/** Finds a person by username or email address (sign-in accepts either: 000 §2). */
export async function findPerson(cfg: DirectoryConfig, login: string): Promise<DirectoryPerson | null> {
  const v = escapeFilterValue(login);
  return withAdmin(cfg, async (client) => {
    const { searchEntries } = await client.search(peopleDn(cfg), {
      scope: 'one',
      filter: `(&(objectClass=inetOrgPerson)(|(uid=${v})(mail=${v})))`,
      attributes: PERSON_ATTRIBUTES,
      sizeLimit: 2,
    });
    return searchEntries.length === 1 ? toPerson(searchEntries[0]!, argon2ParamsOf(cfg)) : null;
  });
}

/** Finds a person by entryUUID (the portal user's uuid). */
export async function findPersonByUuid(cfg: DirectoryConfig, uuid: string): Promise<DirectoryPerson | null> {
  return withAdmin(cfg, async (client) => {
    const { searchEntries } = await client.search(peopleDn(cfg), {
      scope: 'one',
      filter: `(&(objectClass=inetOrgPerson)(entryUUID=${escapeFilterValue(uuid)}))`,
      attributes: PERSON_ATTRIBUTES,
      sizeLimit: 2,
    });
    return searchEntries.length === 1 ? toPerson(searchEntries[0]!, argon2ParamsOf(cfg)) : null;
  });
}

/** The default password policy's lockout threshold (pwdMaxFailure; 0 means no lockout). */
export async function readMaxFailures(cfg: DirectoryConfig): Promise<number> {
  return (await readPolicy(cfg)).maxFailure;
}

export type BindOutcome = { ok: true } | { ok: false; reason: 'invalidCredentials' };

/**
 * Checks a password by binding as the person's DN.
 * @throws on a directory that cannot be reached (the caller answers unspecifiedFailure).
 */
export async function bindAsUser(cfg: DirectoryConfig, dn: string, password: string): Promise<BindOutcome> {
  const client = newClient(cfg);
  try {
    await client.bind(dn, password);
    return { ok: true };
  } catch (err) {
    if (err instanceof InvalidCredentialsError) return { ok: false, reason: 'invalidCredentials' };
    throw err;
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * Creates the base entries (suffix, people, policies, default password policy, the sign-in timing entry of
 * timing.ts) when missing and writes the
 * policy's values into the default policy entry (so an existing directory gets the current policy).
 * Idempotent.
 */
export async function ensureTree(
  cfg: DirectoryConfig,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): Promise<void> {
  const dc = /^dc=([^,]+)/.exec(cfg.LDAP_BASE_DN)?.[1] ?? 'portal';
  await withAdmin(cfg, async (client) => {
    const entries: Array<[string, Record<string, string | string[]>]> = [
      [cfg.LDAP_BASE_DN, { objectClass: ['top', 'dcObject', 'organization'], dc, o: 'Portal Gateway' }],
      [peopleDn(cfg), { objectClass: ['top', 'organizationalUnit'], ou: 'people' }],
      [policiesDn(cfg), { objectClass: ['top', 'organizationalUnit'], ou: 'policies' }],
      [
        defaultPolicyDn(cfg),
        { objectClass: ['top', 'device', 'pwdPolicy'], cn: 'default', ...policyAttributes(policy) },
      ],
    ];
    for (const [dn, attrs] of entries) {
      const { searchEntries } = await client
        .search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] })
        .catch(() => ({ searchEntries: [] as Entry[] }));
      if (searchEntries.length === 0) await client.add(dn, attrs);
    }
    await ensureTimingEntry(cfg, client);
    await client.modify(
      defaultPolicyDn(cfg),
      Object.entries(policyAttributes(policy)).map(
        ([type, value]) => new Change({ operation: 'replace', modification: new Attribute({ type, values: [value] }) }),
      ),
    );
  });
}

export interface NewPerson {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  gecos: string;
  uidNumber: number;
  /** Omitted: the entry has no password until the person sets the initial one (000 §7 set_initial_password). */
  password?: string;
}

/**
 * Adds a person under ou=people (inetOrgPerson + posixAccount) with an {ARGON2} password, or returns the
 * existing entry for that username. @returns the entry's entryUUID.
 */
export async function addPerson(cfg: DirectoryConfig, p: NewPerson, client?: Client): Promise<string> {
  const run = async (c: Client): Promise<string> => {
    const dn = userDn(cfg, p.username);
    const existing = await c
      .search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['entryUUID'] })
      .catch(() => ({ searchEntries: [] as Entry[] }));
    if (existing.searchEntries.length === 0) {
      await c.add(dn, {
        objectClass: ['top', 'inetOrgPerson', 'posixAccount'],
        uid: p.username,
        cn: `${p.firstName} ${p.lastName}`,
        givenName: p.firstName,
        sn: p.lastName,
        mail: p.email,
        gecos: p.gecos || `${p.firstName} ${p.lastName}`,
        uidNumber: String(p.uidNumber),
        gidNumber: '10000',
        homeDirectory: `/home/${p.username}`,
        ...(p.password === undefined ? {} : { userPassword: await argon2Hash(p.password, argon2ParamsOf(cfg)) }),
      });
    }
    const { searchEntries } = await c.search(dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ['entryUUID'],
    });
    return firstValue(searchEntries[0]!, 'entryUUID');
  };
  return client ? run(client) : withAdmin(cfg, run);
}
