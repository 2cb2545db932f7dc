/**
 * LDAP Details of the review screen (001 §2.4, §3 LDAP match; §7 usersForEmail, usersForPersonName):
 * directory entries matching the registration, each flagged when a portal user is already linked to it
 * (the select disables those, 001 §5).
 */
import type { LdapMatch } from '@portal/contract';
import { type DirectoryMatch, findPeopleByEmail, findPeopleByName } from '@portal/directory';
import type { Deps } from '../../../deps';
import { unavailable } from '../../../http/errors';

async function withAttachment(deps: Deps, found: DirectoryMatch[]): Promise<LdapMatch[]> {
  const linked = await deps.prisma.portalUser.findMany({
    where: { uuid: { in: found.map((m) => m.uuid) } },
    select: { uuid: true },
  });
  const attached = new Set(linked.map((u) => u.uuid));
  return found.map(({ dn: _dn, ...m }) => ({ ...m, attachedToPortalUserAccount: attached.has(m.uuid) }));
}

/** @throws HttpError 503 when the directory cannot be reached. */
export async function matchesByEmail(deps: Deps, email: string): Promise<LdapMatch[]> {
  const found = await findPeopleByEmail(deps.directory, email).catch(() => {
    throw unavailable('The directory could not be searched.');
  });
  return withAttachment(deps, found);
}

/** @throws HttpError 503 when the directory cannot be reached. */
export async function matchesByName(deps: Deps, lastName: string, firstName: string): Promise<LdapMatch[]> {
  const found = await findPeopleByName(deps.directory, lastName, firstName).catch(() => {
    throw unavailable('The directory could not be searched.');
  });
  return withAttachment(deps, found);
}
