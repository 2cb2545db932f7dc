/**
 * What staff do with another person's second factors (issue 37; docs/decisions.md "Second factors"): READ_USERS
 * sees which kinds a person has (never a secret or a code); an ADMIN resets them (after the screen's
 * confirmation): every factor, pending enrolment and recovery code goes, the person's sessions end, the reset is
 * audited and mailed, and the person's next enrolment is a first one again (confirmed by a mailed link).
 */
import type { UserSecondFactors } from '@portal/contract';
import type { AuthContext } from '../../auth/guard';
import { recoveryCodesLeft } from '../../auth/recovery-codes';
import { invalidateUserSessions } from '../../auth/session';
import type { Deps } from '../../deps';
import { recordAudit } from '../../shared/audit-log';
import { mailFactorNotice } from './mail';

/** The kinds of `userId`'s active factors, whether a first one waits for its link, and codes left. */
export async function userSecondFactors(deps: Deps, userId: number): Promise<UserSecondFactors> {
  const [factors, left] = await Promise.all([
    deps.prisma.secondFactor.findMany({
      where: { portalUserId: userId },
      select: { kind: true, confirmedAt: true, linkDigest: true },
    }),
    recoveryCodesLeft(deps.prisma, userId),
  ]);
  const active = factors.filter((f) => f.confirmedAt);
  return {
    kinds: [...new Set(active.map((f) => f.kind))],
    awaitingEmail: factors.some((f) => !f.confirmedAt && f.linkDigest),
    recoveryCodesLeft: left,
  };
}

/**
 * An ADMIN's reset of `user`'s second factors. @returns how many active factors were removed (0: nothing to
 * reset, nothing audited or mailed).
 */
export async function resetSecondFactors(
  deps: Deps,
  admin: AuthContext,
  user: { id: number; username: string; email: string; firstName: string; lastName: string },
): Promise<number> {
  const removed = await deps.prisma.$transaction(async (tx) => {
    const active = await tx.secondFactor.count({ where: { portalUserId: user.id, confirmedAt: { not: null } } });
    const factors = await tx.secondFactor.deleteMany({ where: { portalUserId: user.id } });
    const codes = await tx.recoveryCode.deleteMany({ where: { portalUserId: user.id } });
    await tx.secondFactorFailure.deleteMany({ where: { portalUserId: user.id } });
    if (factors.count + codes.count > 0) {
      await recordAudit(
        tx,
        { userId: admin.userId, username: admin.username },
        {
          entityType: 'PortalUser',
          entityId: user.id,
          action: 'SECOND_FACTORS_RESET',
          before: { factors: active, recoveryCodes: codes.count },
        },
      );
    }
    return active;
  });
  if (removed > 0) {
    // A session opened with the factor that is gone no longer proves it.
    await invalidateUserSessions(deps.prisma, user.id);
    await mailFactorNotice(deps, user, 'reset');
  }
  return removed;
}
