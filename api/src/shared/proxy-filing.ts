/**
 * The single-user POST /rest/secure/user_access_mod_request for another user (001 §9 "one user per call",
 * §6): accepted from a proxy with the right who may reach that user (proxy-scope.ts), refused 403 otherwise.
 * The filing (`fileAccessChange`) marks it a proxy request and writes the proxy marker into its comment (000 §3).
 */
import type { FilingParty } from '@portal/db';
import type { AuthContext } from '../auth/guard';
import type { Deps } from '../deps';
import { forbidden } from '../http/errors';
import { proxyRulesOf } from './proxy-capability';
import { loadProxyScope, unreachableUsers } from './proxy-scope';

/**
 * @returns null when `subjectId` is the actor (an own request), the proxy as the marker names them otherwise.
 * @throws HttpError 403 without the proxy right or when the subject is outside the proxy's sites.
 */
export async function proxyFilingFor(deps: Deps, actor: AuthContext, subjectId: number): Promise<FilingParty | null> {
  if (subjectId === actor.userId) return null;
  const scope = await loadProxyScope(deps.prisma, proxyRulesOf(deps.cfg), actor.userId);
  if (!scope.canSubmit) throw forbidden();
  if ((await unreachableUsers(deps.prisma, scope, [subjectId])).length) throw forbidden();
  return { name: `${actor.firstName} ${actor.lastName}`, email: actor.email, id: actor.userId };
}
