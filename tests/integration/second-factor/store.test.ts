/**
 * The second factors' store (issue 37; docs/decisions.md "Second factors") on the real PostgreSQL, through the
 * API's own functions: a TOTP enrolment is confirmed only with a code of its secret; a code is accepted once,
 * also when a second client (another API process's pool) is handed the same code at the same moment; the
 * secret is stored sealed; recovery codes are single-use and replaced when issued again.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_DEFAULTS } from '@portal/directory';
import type { PrismaClient } from '@portal/db';
import { acceptTotp, beginTotp, confirmTotp, totpCode } from '../../../api/src/auth/totp';
import {
  RECOVERY_CODE_COUNT,
  issueRecoveryCodes,
  recoveryCodesLeft,
  useRecoveryCode,
} from '../../../api/src/auth/recovery-codes';
import { testPrisma } from '../fixtures';
import { currentCode, nextStepCode } from '../../support/totp-codes';

const KEY = crypto.randomBytes(32).toString('base64url');
let prisma: PrismaClient;
let other: PrismaClient;

beforeAll(() => {
  prisma = testPrisma();
  other = testPrisma();
});
afterAll(async () => {
  await prisma?.$disconnect();
  await other?.$disconnect();
});

async function person() {
  const username = `sf${crypto.randomBytes(4).toString('hex')}`;
  return prisma.portalUser.create({
    data: { username, firstName: 'Second', lastName: 'Factor', email: `${username}@it.portal.test` },
  });
}

const enrol = async (user: { id: number; username: string }) =>
  beginTotp(prisma, KEY, user, { label: 'Phone', issuer: 'Portal Gateway' });

describe('a TOTP enrolment', () => {
  it('is confirmed by a code of its secret only, and stores the secret sealed', async () => {
    const user = await person();
    const enrolment = await enrol(user);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    const row = await prisma.secondFactor.findUniqueOrThrow({ where: { id: enrolment.factorId } });
    expect(row.confirmedAt).toBeNull();
    expect(row.secretSealed).not.toContain(enrolment.secret);

    // Unconfirmed, it signs nothing in.
    expect(await acceptTotp(prisma, KEY, user.id, await totpCode(enrolment.secret))).toBeNull();
    const wrongSecret = (await enrol({ ...user, username: `${user.username}x` })).secret;
    expect(await confirmTotp(prisma, KEY, user.id, enrolment.factorId, await totpCode(wrongSecret))).toBe(false);
    expect(await confirmTotp(prisma, KEY, user.id, enrolment.factorId, '12345')).toBe(false);
  });

  it('accepts each code once, whichever process is handed it', async () => {
    const user = await person();
    const enrolment = await enrol(user);
    // Confirmed with the current code; the sign-ins then take the next step's (support/totp-codes.ts).
    const earlier = await currentCode(enrolment.secret);
    expect(await confirmTotp(prisma, KEY, user.id, enrolment.factorId, earlier)).toBe(true);
    expect(await confirmTotp(prisma, KEY, user.id, enrolment.factorId, earlier)).toBe(false);

    const code = await nextStepCode(enrolment.secret);
    const answers = await Promise.all([acceptTotp(prisma, KEY, user.id, code), acceptTotp(other, KEY, user.id, code)]);
    expect(answers.filter(Boolean)).toEqual([{ factorId: enrolment.factorId }]);
    expect(await acceptTotp(prisma, KEY, user.id, code)).toBeNull();
    // The earlier step stays refused too: only later steps can be accepted.
    expect(await acceptTotp(other, KEY, user.id, earlier)).toBeNull();
    const row = await prisma.secondFactor.findUniqueOrThrow({ where: { id: enrolment.factorId } });
    expect(row.confirmedAt).not.toBeNull();
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('is refused under another key (a stolen row opens nothing)', async () => {
    const user = await person();
    const enrolment = await enrol(user);
    await expect(
      confirmTotp(prisma, crypto.randomBytes(32).toString('base64url'), user.id, enrolment.factorId, '000000'),
    ).rejects.toThrow();
  });
});

describe('recovery codes', () => {
  it('are single-use, hashed, and replaced when issued again', async () => {
    const user = await person();
    const codes = await issueRecoveryCodes(prisma, user.id, ARGON2_DEFAULTS);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){4}$/);
    const stored = await prisma.recoveryCode.findMany({ where: { portalUserId: user.id } });
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    expect(stored.every((r) => r.hash.startsWith('{ARGON2}$argon2id$') && !codes.some((c) => r.hash.includes(c)))).toBe(
      true,
    );

    const [first, second] = [codes[0]!, codes[1]!];
    const answers = await Promise.all([
      useRecoveryCode(prisma, user.id, first),
      useRecoveryCode(other, user.id, first),
    ]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await useRecoveryCode(prisma, user.id, first)).toBe(false);
    // Typed in capitals without dashes, it is the same code.
    expect(await useRecoveryCode(prisma, user.id, second.toUpperCase().replaceAll('-', ' '))).toBe(true);
    expect(await recoveryCodesLeft(prisma, user.id)).toBe(RECOVERY_CODE_COUNT - 2);
    // Another person's code is not this person's.
    const stranger = await person();
    const theirs = await issueRecoveryCodes(prisma, stranger.id, ARGON2_DEFAULTS);
    expect(await useRecoveryCode(prisma, user.id, theirs[0]!)).toBe(false);

    const fresh = await issueRecoveryCodes(prisma, user.id, ARGON2_DEFAULTS);
    expect(await useRecoveryCode(prisma, user.id, codes[2]!)).toBe(false);
    expect(await useRecoveryCode(prisma, user.id, fresh[0]!)).toBe(true);
    expect(await recoveryCodesLeft(prisma, user.id)).toBe(RECOVERY_CODE_COUNT - 1);
  });
});
