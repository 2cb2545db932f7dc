/**
 * The portal's sign-in step of a system's sign-in (issue 22 "One sign-in", "Who may enter"). The provider sends
 * the browser to GET /oidc/interaction/:uid, which hands it to the portal's page /app/sso/:uid; that page posts
 * here from the portal's own origin, so the SameSite=Strict session cookie travels even when the browser came
 * from another site's redirect. The portal session decides who this is (lockout, expired passwords and
 * inactivity already applied to it); then the person must be active and hold the client's system. Consent is
 * implied: the grant gets what the system asked for. Refusals answer their 000 §8 case, never a callback.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { RESOLVED_STATUSES, type SsoLoginAnswer, type SsoRefusalCase, ssoRefusalText } from '@portal/contract';
import type { Deps } from '../../deps';
import { accessToSystem } from './account';
import { systemOfClient } from './clients';

const refused = (
  deps: Deps,
  kase: SsoRefusalCase,
  system: Extract<SsoLoginAnswer, { outcome: 'REFUSED' }>['system'] = null,
  openRequestId: number | null = null,
): SsoLoginAnswer => ({
  outcome: 'REFUSED',
  case: kase,
  message: ssoRefusalText(kase, deps.cfg.SSO_PROVIDER_NAME),
  system,
  openRequestId,
});

/** The signed-in person's open access-change request naming `systemId`, if any. */
async function openRequestFor(deps: Deps, userId: number, systemId: number): Promise<number | null> {
  const open = await deps.prisma.accessModRequest.findMany({
    where: { subjectUserId: userId, requestStatus: { notIn: [...RESOLVED_STATUSES] } },
    select: { id: true, accessControls: true },
    orderBy: { id: 'desc' },
  });
  const names = (c: unknown) =>
    (c as Array<{ systemAccessIds?: number[] }>).some((b) => b.systemAccessIds?.includes(systemId));
  return open.find((r) => names(r.accessControls))?.id ?? null;
}

/** Audits a sign-in or a refusal at the portal's step (issue 22 Audit): per client, with the refusal's case. */
async function audit(
  deps: Deps,
  req: FastifyRequest,
  clientId: string,
  answer: SsoLoginAnswer,
): Promise<SsoLoginAnswer> {
  await deps.prisma.auditEvent.create({
    data: {
      actorUserId: req.auth!.userId,
      actorUsername: req.auth!.username,
      entityType: 'SsoClient',
      entityId: clientId || '(none)',
      action: answer.outcome === 'CONTINUE' ? 'SSO_SIGN_IN' : 'SSO_REFUSED',
      after: answer.outcome === 'CONTINUE' ? {} : { case: answer.case },
    },
  });
  return answer;
}

/**
 * Finishes interaction `uid` for the signed-in person (`req.auth`, set by the session guard).
 * @returns where the browser goes on, or the refusal to show.
 */
export async function finishSignIn(
  deps: Deps,
  provider: Provider,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<SsoLoginAnswer> {
  const { clientId, answer } = await decide(deps, provider, req, reply);
  return audit(deps, req, clientId, answer);
}

async function decide(
  deps: Deps,
  provider: Provider,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ clientId: string; answer: SsoLoginAnswer }> {
  let details;
  try {
    details = await provider.interactionDetails(req.raw, reply.raw);
  } catch {
    // An expired or foreign interaction: the link cannot be followed any more.
    return { clientId: '', answer: refused(deps, 'invalidLink') };
  }
  const clientId = typeof details.params.client_id === 'string' ? details.params.client_id : '';
  const no = (answer: SsoLoginAnswer) => ({ clientId, answer });
  if (!clientId) return no(refused(deps, 'undetermined'));
  const system = await systemOfClient(deps.prisma, clientId);
  if (!system) return no(refused(deps, 'invalidLink'));
  const { user, records } = await accessToSystem(deps.prisma, { id: req.auth!.userId }, system.id);
  if (!user || user.inactive) return no(refused(deps, 'identity'));
  if (!records.length) {
    return no(refused(deps, 'notAuthorized', system, await openRequestFor(deps, user.id, system.id)));
  }

  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: user.subjectId, clientId }))
    : new provider.Grant({ accountId: user.subjectId, clientId });
  const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const redirectTo = await provider.interactionResult(
    req.raw,
    reply.raw,
    { login: { accountId: user.subjectId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  return { clientId, answer: { outcome: 'CONTINUE', redirectTo } };
}
