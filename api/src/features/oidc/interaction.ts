/**
 * The portal's sign-in step of a system's sign-in (issue 22 "One sign-in", "Who may enter"). The provider sends
 * the browser to GET /oidc/interaction/:uid, which hands it to the portal's page /app/sso/:uid; that page posts
 * here from the portal's own origin, so the SameSite=Strict session cookie travels even when the browser came
 * from another site's redirect. The portal session decides who this is (lockout, expired passwords and
 * inactivity already applied to it); then the person must be active and hold the client's system. Consent is
 * implied: the grant gets what the system asked for. Refusals answer their 000 §8 case, never a callback.
 * Issue 37 ("Study systems can ask for it"): a request for a newer sign-in (`prompt=login`, `max_age`) answers
 * SIGN_IN_AGAIN and one for the multi-factor level STEP_UP (the person has a factor) or the 'noSecondFactor'
 * refusal (none enrolled yet), and one for the phishing-resistant level STEP_UP with that level (the person
 * has a passkey) or the 'noPasskey' refusal; the provider is told the session's level, methods and sign-in time
 * (levels.ts; docs/decisions.md "Sign-in levels").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { ACR, RESOLVED_STATUSES, type SsoLoginAnswer, type SsoRefusalCase, ssoRefusalText } from '@portal/contract';
import type { Deps } from '../../deps';
import { accessToSystem } from './account';
import { systemOfClient } from './clients';
import { claimsNamed, demandOf, levelOfAmr, meets, reportedAcr, reportedAmr } from './levels';
import { recordAudit } from '../../shared/audit-log';

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

/**
 * Audits a sign-in or a refusal at the portal's step (issue 22 Audit): per client, with the refusal's case. A
 * step-up or a sign-in again is not an outcome yet: the step is posted again after it, and audited then.
 */
async function audit(
  deps: Deps,
  req: FastifyRequest,
  clientId: string,
  answer: SsoLoginAnswer,
): Promise<SsoLoginAnswer> {
  if (answer.outcome === 'STEP_UP' || answer.outcome === 'SIGN_IN_AGAIN') return answer;
  await recordAudit(
    deps.prisma,
    { userId: req.auth!.userId, username: req.auth!.username },
    {
      entityType: 'SsoClient',
      entityId: clientId || '(none)',
      action: answer.outcome === 'CONTINUE' ? 'SSO_SIGN_IN' : 'SSO_REFUSED',
      after: answer.outcome === 'REFUSED' ? { case: answer.case } : {},
    },
  );
  return answer;
}

/**
 * Whether the request asks for a sign-in newer than the session's (issue 37): `prompt=login`, or `max_age`
 * seconds passed since `authenticatedAt`. A sign-in made since the interaction began (`iat`, in seconds: one
 * in the same second counts) is the one asked for, so coming back after it never asks again (`max_age=0`).
 */
function mustSignInAgain(params: Record<string, unknown>, interactionIat: number, authenticatedAt: Date): boolean {
  const at = Math.floor(authenticatedAt.getTime() / 1000);
  if (at >= interactionIat) return false;
  const prompts = typeof params.prompt === 'string' ? params.prompt.split(' ') : [];
  if (prompts.includes('login')) return true;
  const maxAge = Number(params.max_age ?? Number.NaN);
  return Number.isFinite(maxAge) && Math.floor(Date.now() / 1000) - at > maxAge;
}

/**
 * Whether `userId` has a confirmed second factor (of `kind` when given: a passkey for the phishing-resistant
 * level), so a step-up can be taken (features/auth/second-step.ts).
 */
async function hasSecondFactor(deps: Deps, userId: number, kind?: 'WEBAUTHN'): Promise<boolean> {
  const where = { portalUserId: userId, confirmedAt: { not: null }, ...(kind ? { kind } : {}) };
  return (await deps.prisma.secondFactor.count({ where })) > 0;
}

/**
 * Finishes interaction `uid` for the signed-in person (`req.auth`, set by the session guard).
 * @returns where the browser goes on, the refusal to show, or (issue 37) STEP_UP / SIGN_IN_AGAIN first.
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

  const auth = req.auth!;
  const demand = demandOf(details.params);
  if (demand.unmet) {
    // An essential acr naming no published level: no sign-in meets it, so the system hears so (OIDC Core
    // §5.5.1.1; Unmet Authentication Requirements 1.0) instead of the person waiting at the portal.
    const redirectTo = await provider.interactionResult(req.raw, reply.raw, {
      error: 'unmet_authentication_requirements',
      error_description: 'none of the requested authentication levels is offered',
    });
    return { clientId, answer: { outcome: 'CONTINUE', redirectTo } };
  }
  if (mustSignInAgain(details.params, details.iat, auth.authenticatedAt)) {
    return { clientId, answer: { outcome: 'SIGN_IN_AGAIN' } };
  }
  const reached = levelOfAmr(auth.amr);
  const acr = meets(reached, demand) ? reportedAcr(reached, demand) : null;
  if (acr === null) {
    // The phishing-resistant level needs a passkey: a code would leave the session where it is.
    if (demand.level === ACR.phishingResistant) {
      if (await hasSecondFactor(deps, user.id, 'WEBAUTHN')) {
        return { clientId, answer: { outcome: 'STEP_UP', level: ACR.phishingResistant } };
      }
      return no(refused(deps, 'noPasskey', system));
    }
    if (await hasSecondFactor(deps, user.id)) return { clientId, answer: { outcome: 'STEP_UP' } };
    return no(refused(deps, 'noSecondFactor', system));
  }

  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: user.subjectId, clientId }))
    : new provider.Grant({ accountId: user.subjectId, clientId });
  const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
  grant.addOIDCScope(scope);
  // Claims asked by name in the `claims` parameter are granted as the scopes are (consent is implied).
  const named = claimsNamed(details.params);
  if (named.length) grant.addOIDCClaims(named);
  const grantId = await grant.save();
  const redirectTo = await provider.interactionResult(
    req.raw,
    reply.raw,
    {
      login: {
        accountId: user.subjectId,
        acr,
        amr: reportedAmr(auth.amr),
        ts: Math.floor(auth.authenticatedAt.getTime() / 1000),
      },
      consent: { grantId },
    },
    { mergeWithLastSubmission: false },
  );
  return { clientId, answer: { outcome: 'CONTINUE', redirectTo } };
}
