/**
 * The signed-in user's profile as GET user_profile and PUT user_profile_mod answer it (000 §3 Profile): the
 * person, the mailing address with country and state as objects, the active portal roles and access
 * records, and the proxy capability (001 §6).
 */
import type { Profile } from '@portal/contract';
import type { Prisma, PrismaClient } from '@portal/db';
import { notFound } from '../../http/errors';
import { type ProxyRules, proxyCapability } from '../../shared/proxy-capability';
import { portalRoleView, userAccessViews } from '../../shared/views';

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Loads user `userId`'s profile with `db` (inside a save's transaction, what that save wrote); `rules` are the
 * configured proxy lists.
 * @throws HttpError 404 when the user does not exist.
 */
export async function loadProfile(db: Db, rules: ProxyRules, userId: number): Promise<Profile> {
  const user = await db.portalUser.findUnique({
    where: { id: userId },
    include: {
      portalRoles: { include: { role: true } },
      userAccesses: { where: { inactive: false }, orderBy: { roleName: 'asc' } },
    },
  });
  if (!user) throw notFound("Problem loading user's access.");
  const [country, state] = await Promise.all([
    user.country ? db.country.findUnique({ where: { country: user.country } }) : null,
    user.country && user.state
      ? db.state.findUnique({ where: { country_state: { country: user.country, state: user.state } } })
      : null,
  ]);
  const roles = user.portalRoles.map((r) => r.role).filter((r) => !r.inactive);
  return {
    portalUserId: user.id,
    uuid: user.uuid,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    organizationName: user.organizationName,
    jobTitle: user.jobTitle,
    phoneNumber: user.phoneNumber,
    phoneExtension: user.phoneExtension,
    address1: user.address1,
    address2: user.address2,
    city: user.city,
    // A code whose reference row is gone is still the user's: shown by its code rather than dropped.
    country: user.country ? { country: user.country, countryName: country?.countryName ?? user.country } : null,
    state: user.state ? { state: user.state, stateName: state?.stateName ?? user.state } : null,
    postalCode: user.postalCode,
    accountType: user.accountType,
    roles: roles.map(portalRoleView),
    userAccesses: await userAccessViews(db, user.userAccesses),
    canSubmitProxyAccessChangeRequests: proxyCapability(
      rules,
      roles.map((r) => r.description),
      user.userAccesses.map((a) => a.roleName),
    ),
  };
}
