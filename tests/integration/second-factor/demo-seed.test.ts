/**
 * The demo's second factors (README "Demo accounts"; prisma/seed/second-factors.ts), on a copy of the seeded
 * test database: the staff personas get one confirmed authenticator app with the documented key, which the
 * product's own second step accepts; seeding again changes nothing; nobody else gets one.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismaClient, createPrisma } from '@portal/db';
import { DEMO_SECOND_FACTOR_USERS, DEMO_TOTP_SECRET, seedDemoSecondFactors } from '@portal/db/seed';
import { acceptTotp, totpCode } from '../../../api/src/auth/totp';
import { cloneDatabase } from '../hostile/walker-support';

const KEY = crypto.randomBytes(32).toString('base64url');
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let prisma: PrismaClient;

beforeAll(async () => {
  clone = await cloneDatabase();
  prisma = createPrisma(clone.url);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await clone?.drop();
});

describe('the demo seed', () => {
  it('enrols the documented key for the staff personas once, and the second step accepts its code', async () => {
    await seedDemoSecondFactors(prisma, KEY, () => {});
    await seedDemoSecondFactors(prisma, KEY, () => {});
    const factors = await prisma.secondFactor.findMany({ include: { user: { select: { username: true } } } });
    expect(factors.map((f) => f.user.username).sort()).toEqual([...DEMO_SECOND_FACTOR_USERS].sort());
    expect(factors.every((f) => f.confirmedAt !== null && !f.secretSealed?.includes(DEMO_TOTP_SECRET))).toBe(true);
    const reviewer = factors.find((f) => f.user.username === 'reviewer')!;
    expect(await acceptTotp(prisma, KEY, reviewer.portalUserId, await totpCode(DEMO_TOTP_SECRET))).toEqual({
      factorId: reviewer.id,
    });
  });
});
