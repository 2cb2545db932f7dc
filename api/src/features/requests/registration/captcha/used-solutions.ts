/**
 * The captcha's used solutions in PostgreSQL (issue 24): a verified ALTCHA challenge's signature is recorded
 * until the challenge expires, so a solution is accepted once, by whichever API process sees it first.
 * The primary key decides between two concurrent submissions (one insert wins, the other finds the row).
 */
import type { PrismaClient } from '@portal/db';

export interface UsedSolutions {
  /** Records `signature` as used until `expiresAt`. @returns false when it was already recorded (a replay). */
  claim(signature: string, expiresAt: Date): Promise<boolean>;
}

/** How often (at most) one process deletes the rows of expired challenges: they can never be replayed. */
const SWEEP_EVERY_MS = 60_000;

/** The used solutions of every API process, in "CaptchaUsedSolution". */
export function postgresUsedSolutions(prisma: PrismaClient): UsedSolutions {
  let sweptAt = 0;
  return {
    async claim(signature, expiresAt) {
      const now = Date.now();
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        void prisma.captchaUsedSolution.deleteMany({ where: { expiresAt: { lt: new Date(now) } } }).catch(() => {});
      }
      const { count } = await prisma.captchaUsedSolution.createMany({
        data: [{ signature, expiresAt }],
        skipDuplicates: true,
      });
      return count === 1;
    },
  };
}
