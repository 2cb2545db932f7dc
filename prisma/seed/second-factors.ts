/**
 * The demo's second factors (issue 37; README "Demo accounts"): the staff personas (admin, reviewer, readonly),
 * whose roles require a second sign-in step, get a confirmed authenticator app with one documented key, so
 * the demo signs them in with a code at once. Only for `npm run up` (SEED_DEMO_SECOND_FACTORS): the test
 * stacks' staff sign in with the password alone. Idempotent: a persona with a factor keeps it.
 */
import type { PrismaClient } from '../generated/client/client';
import { SECOND_FACTOR_SEAL_PURPOSE, sealText } from '../src/sealed';

/** The demo key (Base32), documented in the README: add it to an authenticator app, or compute its codes. */
export const DEMO_TOTP_SECRET = 'PORTALGATEWAYDEMOSTAFFKEYTWOSTEP';

/** The personas that get it. */
export const DEMO_SECOND_FACTOR_USERS = ['admin', 'reviewer', 'readonly'] as const;

/** Enrols the demo key for each staff persona without a factor, sealed with `key` (the API's SECOND_FACTOR_KEY). */
export async function seedDemoSecondFactors(
  prisma: PrismaClient,
  key: string,
  log: (l: string) => void,
): Promise<void> {
  const users = await prisma.portalUser.findMany({
    where: { username: { in: [...DEMO_SECOND_FACTOR_USERS] }, secondFactors: { none: {} } },
    select: { id: true, username: true },
  });
  for (const user of users) {
    await prisma.secondFactor.create({
      data: {
        portalUserId: user.id,
        kind: 'TOTP',
        label: 'Demo authenticator app',
        secretSealed: sealText(key, SECOND_FACTOR_SEAL_PURPOSE, DEMO_TOTP_SECRET),
        provenAt: new Date(),
        confirmedAt: new Date(),
      },
    });
  }
  if (users.length) log(`the demo authenticator app enrolled for ${users.map((u) => u.username).join(', ')}`);
}
