/**
 * The single-user POST /rest/secure/user_access_mod_request for another user (001 §9 "one user per call",
 * §6): accepted from a proxy with the right who may reach that user (proxy-scope.ts), refused 403 otherwise.
 * The request is marked a proxy request and its comment carries the proxy marker (000 §3).
 */
import { proxyComment } from '@portal/contract';
import type { AuthContext } from '../auth/guard';
import type { Deps } from '../deps';
import { forbidden } from '../http/errors';
import { loadProxyScope, unreachableUsers } from './proxy-scope';

export interface ProxyFiling {
  /** The stored requester comment: the marker, then the proxy's own comment. */
  comment(subject: { id: number; firstName: string; lastName: string; email: string }, text: string): string;
}

/**
 * @returns null when `subjectId` is the actor (an own request), the proxy filing otherwise.
 * @throws HttpError 403 without the proxy right or when the subject is outside the proxy's sites.
 */
export async function proxyFilingFor(deps: Deps, actor: AuthContext, subjectId: number): Promise<ProxyFiling | null> {
  if (subjectId === actor.userId) return null;
  const scope = await loadProxyScope(deps.prisma, actor.userId);
  if (!scope.canSubmit) throw forbidden();
  if ((await unreachableUsers(deps.prisma, scope, [subjectId])).length) throw forbidden();
  const proxy = { name: `${actor.firstName} ${actor.lastName}`, email: actor.email, id: actor.userId };
  return {
    comment: (s, text) =>
      proxyComment(proxy, { name: `${s.firstName} ${s.lastName}`, email: s.email, id: s.id }, text).slice(0, 1024),
  };
}
