/** Reading ldapts entries: shared by the directory modules. */
import type { Entry } from 'ldapts';

/** The first value of `attr` as text, '' when the entry has none. */
export function firstValue(entry: Entry, attr: string): string {
  const v = entry[attr];
  if (Array.isArray(v)) return v.length ? String(v[0]) : '';
  return v === undefined ? '' : String(v);
}

/** The attributes that name a person entry. */
export const IDENTITY_ATTRIBUTES = ['entryUUID', 'uid', 'mail', 'givenName', 'sn', 'gecos'];

/** A person entry's name and address as the portal reads them (001 §3 LDAP match, 000 §4). */
export interface DirectoryIdentity {
  dn: string;
  uuid: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  gecos: string;
}

/** The identity of a person entry read with IDENTITY_ATTRIBUTES ('' for an attribute it lacks). */
export const identityOf = (e: Entry): DirectoryIdentity => ({
  dn: e.dn,
  uuid: firstValue(e, 'entryUUID'),
  username: firstValue(e, 'uid'),
  email: firstValue(e, 'mail'),
  firstName: firstValue(e, 'givenName'),
  lastName: firstValue(e, 'sn'),
  gecos: firstValue(e, 'gecos'),
});
