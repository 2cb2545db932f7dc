/**
 * Who may read GET /rest/secure/user_management/users (000 §7 READ_USERS) and the proxy's reading of it
 * (001 §2.7 step 2; docs/api.md): READ_USERS reads every user with any filter; a proxy without READ_USERS
 * reads only with a site filter, an AO or LAO among their own sites, or any site and 'unaffiliated users'
 * with forAllUsers. Anyone else: 403 before the query is validated.
 */
import type { onRequestHookHandler } from 'fastify';
import { type UsersQuery, hasAllPermissions } from '@portal/contract';
import type { Deps } from '../deps';
import type { AuthContext } from '../auth/guard';
import { forbidden, unauthenticated, unprocessable } from '../http/errors';
import { proxyRulesOf } from './proxy-capability';
import { loadProxyScope } from './proxy-scope';

/** onRequest hook: READ_USERS, or the proxy right. */
export const readUsersOrProxy =
  ({ prisma, cfg }: Pick<Deps, 'prisma' | 'cfg'>): onRequestHookHandler =>
  async (req) => {
    if (!req.auth) throw unauthenticated();
    if (hasAllPermissions(req.auth.permissions, ['READ_USERS'])) return;
    if (!(await loadProxyScope(prisma, proxyRulesOf(cfg), req.auth.userId)).canSubmit) throw forbidden();
  };

/**
 * Checks the site filter (at most one of siteCode, laoCode, unaffiliated=true: 422 otherwise) and, for a
 * caller without READ_USERS, that it is given and within the proxy's reach (403 otherwise).
 */
export async function checkProxyListing(
  { prisma, cfg }: Pick<Deps, 'prisma' | 'cfg'>,
  actor: AuthContext,
  q: UsersQuery,
): Promise<void> {
  const unaffiliated = q.unaffiliated === 'true';
  if ([q.siteCode, q.laoCode, unaffiliated || undefined].filter(Boolean).length > 1) {
    throw unprocessable({ siteCode: ['invalid'], laoCode: ['invalid'], unaffiliated: ['invalid'] });
  }
  if (hasAllPermissions(actor.permissions, ['READ_USERS'])) return;
  const scope = await loadProxyScope(prisma, proxyRulesOf(cfg), actor.userId);
  if (scope.forAllUsers && (q.siteCode || q.laoCode || unaffiliated)) return;
  const own = (q.siteCode && scope.aoCodes.has(q.siteCode)) || (q.laoCode && scope.laoCodes.has(q.laoCode));
  if (!own) throw forbidden();
}
