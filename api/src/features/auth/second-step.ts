/**
 * The sign-in's second step (issue 37; docs/decisions.md "Second factors"). After the password, a person with
 * a confirmed second factor holds a session limited to this step for 5 minutes (`secondFactorDueBy`). The step
 * takes a passkey's answer (auth/webauthn.ts; docs/decisions.md "Passkeys"), an authenticator app's code or one
 * recovery code (auth/totp.ts, auth/recovery-codes.ts). Wrong answers are counted in PostgreSQL per person (slapd clears its own count on the password's bind, so it
 * cannot), answered with 000 §3's flags and 000 §8's texts, the lockout warning included; at the policy's
 * pwdMaxFailure the directory entry is locked as slapd would lock it, and the session ends.
 */
import type { PrismaClient } from '@portal/db';
import { type SecondFactorStepBody, type TokenCreateResponse } from '@portal/contract';
import { lockAccount, readPolicy } from '@portal/directory';
import { afterSecondStep, invalidateSession } from '../../auth/session';
import type { AuthContext } from '../../auth/guard';
import type { Deps } from '../../deps';
import { recoveryCodesLeft, useRecoveryCode } from '../../auth/recovery-codes';
import { acceptTotp } from '../../auth/totp';
import { relyingPartyOf, verifyAssertion } from '../../auth/webauthn';
import { failureMessage } from './sign-in';

/** How long (ms) a session opened by the password waits for its second step. */
export const SECOND_STEP_WINDOW_MS = 5 * 60_000;

export type SecondFactorMethod = NonNullable<TokenCreateResponse['secondFactor']>['methods'][number];

/**
 * The second-step methods of `userId`: WEBAUTHN first when a confirmed passkey is enrolled (it cannot be
 * phished), TOTP when a confirmed authenticator app is, then RECOVERY_CODE when unused codes are left. Empty:
 * the person has no second factor.
 */
export async function secondFactorMethods(prisma: PrismaClient, userId: number): Promise<SecondFactorMethod[]> {
  const kinds = await prisma.secondFactor.groupBy({
    by: ['kind'],
    where: { portalUserId: userId, confirmedAt: { not: null } },
  });
  const has = (kind: 'TOTP' | 'WEBAUTHN') => kinds.some((k) => k.kind === kind);
  const methods: SecondFactorMethod[] = [...(has('WEBAUTHN') ? ['WEBAUTHN' as const] : [])];
  if (has('TOTP')) methods.push('TOTP');
  if (methods.length === 0) return [];
  return (await recoveryCodesLeft(prisma, userId)) > 0 ? [...methods, 'RECOVERY_CODE'] : methods;
}

/** Takes `body`'s answer. @returns the RFC 8176 method it proves, or null when it is refused. */
async function accept(
  deps: Deps,
  auth: AuthContext,
  body: SecondFactorStepBody,
): Promise<'otp' | 'hwk' | 'swk' | null> {
  if ('assertion' in body) {
    const owner = { userId: auth.userId, sessionToken: auth.sessionToken };
    const passkey = await verifyAssertion(deps.prisma, relyingPartyOf(deps.cfg), body.assertion, 'SECOND_STEP', owner);
    return passkey ? passkey.amr : null;
  }
  const key = deps.cfg.SECOND_FACTOR_KEY;
  const accepted =
    'code' in body
      ? key !== undefined && (await acceptTotp(deps.prisma, key, auth.userId, body.code)) !== null
      : await useRecoveryCode(deps.prisma, auth.userId, body.recoveryCode);
  return accepted ? 'otp' : null;
}

export type SecondStepResult = { ok: true } | { ok: false; body: TokenCreateResponse };

/** Counts one wrong code of `userId`. @returns the failures counted since the last accepted code. */
async function countFailure(prisma: PrismaClient, userId: number): Promise<number> {
  const [row] = await prisma.$queryRaw<Array<{ failures: number }>>`
    INSERT INTO "SecondFactorFailure" ("portalUserId", "failures", "lastAt") VALUES (${userId}, 1, now())
    ON CONFLICT ("portalUserId") DO UPDATE
      SET "failures" = "SecondFactorFailure"."failures" + 1, "lastAt" = now()
    RETURNING "failures"`;
  return row!.failures;
}

/**
 * Takes the second step of the session `auth` with `body` (a passkey's answer counts as a code: a refused
 * one is a failure too). Accepted: the session is no longer limited and the
 * failure count is cleared. Refused: `credentialsInvalid` with the attempts left, or `accountLocked` (the
 * entry locked and the session ended) at the policy's pwdMaxFailure. @throws on an unreachable directory or
 * database (the route answers 503).
 */
export async function takeSecondStep(
  deps: Deps,
  auth: AuthContext,
  body: SecondFactorStepBody,
): Promise<SecondStepResult> {
  const method = await accept(deps, auth, body);
  if (method) {
    await deps.prisma.secondFactorFailure.deleteMany({ where: { portalUserId: auth.userId } });
    await afterSecondStep(deps.prisma, auth.sessionToken, auth.amr, method);
    return { ok: true };
  }
  const [failures, policy] = await Promise.all([countFailure(deps.prisma, auth.userId), readPolicy(deps.directory)]);
  const refuse = (b: TokenCreateResponse): SecondStepResult => ({
    ok: false,
    body: { ...b, message: failureMessage(b) },
  });
  if (policy.maxFailure === 0) return refuse({ credentialsInvalid: true });
  if (failures >= policy.maxFailure) {
    await lockAccount(deps.directory, auth.username);
    // The lock is the consequence; an administrator's unlock starts the count again.
    await deps.prisma.secondFactorFailure.deleteMany({ where: { portalUserId: auth.userId } });
    await invalidateSession(deps.prisma, auth.sessionToken);
    return refuse({ accountLocked: true });
  }
  return refuse({ credentialsInvalid: true, attemptsLeftUntilLocked: policy.maxFailure - failures });
}
