/**
 * Authenticator-app codes (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, what every authenticator app
 * reads; otplib) as a person's second factor (issue 37; docs/decisions.md "Second factors"). The shared secret
 * is stored sealed (SECOND_FACTOR_KEY, prisma/src/sealed.ts), shown once at enrolment; a code is accepted
 * once: the last accepted time step is kept in PostgreSQL and moved forward by one conditional UPDATE, so no
 * second API process accepts the same code within its window.
 */
import { type PrismaClient, SECOND_FACTOR_SEAL_PURPOSE, openText, sealText } from '@portal/db';
import { generate, generateSecret, generateURI, verify } from 'otplib';

/** HKDF purpose of the sealed TOTP secrets. */
const PURPOSE = SECOND_FACTOR_SEAL_PURPOSE;

/** Clock drift accepted, in seconds: one step either way. */
export const TOTP_TOLERANCE_SECONDS = 30;

/** A code as typed: six digits (spaces allowed between them). */
const normalise = (code: string): string | null => {
  const digits = code.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};

export interface TotpEnrolment {
  factorId: number;
  /** The shared secret (Base32), shown once as text. */
  secret: string;
  /** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
  uri: string;
}

/**
 * Begins a TOTP enrolment for `user`: a new secret, stored sealed under `key`, not yet confirmed (it signs
 * nothing in until `confirmTotp` proves the app holds it). A person's earlier unconfirmed enrolments are
 * dropped. `issuer` names the portal in the app.
 */
export async function beginTotp(
  prisma: PrismaClient,
  key: string,
  user: { id: number; username: string },
  opts: { label: string; issuer: string },
): Promise<TotpEnrolment> {
  const secret = generateSecret();
  const factor = await prisma.$transaction(async (tx) => {
    await tx.secondFactor.deleteMany({ where: { portalUserId: user.id, kind: 'TOTP', confirmedAt: null } });
    return tx.secondFactor.create({
      data: { portalUserId: user.id, kind: 'TOTP', label: opts.label, secretSealed: sealText(key, PURPOSE, secret) },
    });
  });
  return { factorId: factor.id, secret, uri: generateURI({ issuer: opts.issuer, label: user.username, secret }) };
}

/**
 * Checks `code` against one factor and, when it matches a step after the last accepted one, takes that step
 * (conditional UPDATE: of two processes checking the same code, one wins). @returns whether it was accepted.
 */
async function takeCode(
  prisma: PrismaClient,
  key: string,
  factor: { id: number; secretSealed: string | null; lastTimeStep: bigint | null },
  code: string,
  mode: 'activate' | 'prove' | 'use',
): Promise<boolean> {
  if (factor.secretSealed === null) return false;
  const result = await verify({
    secret: openText(key, PURPOSE, factor.secretSealed),
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(factor.lastTimeStep === null ? {} : { afterTimeStep: Number(factor.lastTimeStep) }),
  });
  // (otplib's result type covers HOTP too; a TOTP match always carries its time step.)
  if (!result.valid || !('timeStep' in result)) return false;
  const step = BigInt(result.timeStep as number);
  const [activate, prove] = [mode === 'activate', mode === 'prove'];
  const taken = await prisma.$executeRaw`
    UPDATE "SecondFactor"
       SET "lastTimeStep" = ${step}, "lastUsedAt" = now(),
           "confirmedAt" = CASE WHEN ${activate} THEN coalesce("confirmedAt", now()) ELSE "confirmedAt" END,
           "provenAt" = CASE WHEN ${activate} OR ${prove} THEN coalesce("provenAt", now()) ELSE "provenAt" END
     WHERE "id" = ${factor.id} AND ("lastTimeStep" IS NULL OR "lastTimeStep" < ${step})`;
  return taken === 1;
}

/**
 * Proves the enrolment `factorId` of `userId` with a code from the app: `activate` (the default) confirms it,
 * so it signs the person in from then on; `prove` only records the proof, for a first factor that still waits
 * for the link mailed to the person (features/second-factor). @returns whether the code was accepted (false: no
 * such pending enrolment, or the code is wrong or already used).
 */
export async function confirmTotp(
  prisma: PrismaClient,
  key: string,
  userId: number,
  factorId: number,
  code: string,
  mode: 'activate' | 'prove' = 'activate',
): Promise<boolean> {
  const digits = normalise(code);
  if (!digits) return false;
  const factor = await prisma.secondFactor.findFirst({
    where: { id: factorId, portalUserId: userId, kind: 'TOTP', confirmedAt: null },
  });
  return factor ? takeCode(prisma, key, factor, digits, mode) : false;
}

/**
 * A sign-in's second step: accepts `code` from any of `userId`'s confirmed TOTP factors, once.
 * @returns the factor that accepted it, or null.
 */
export async function acceptTotp(
  prisma: PrismaClient,
  key: string,
  userId: number,
  code: string,
): Promise<{ factorId: number } | null> {
  const digits = normalise(code);
  if (!digits) return null;
  const factors = await prisma.secondFactor.findMany({
    where: { portalUserId: userId, kind: 'TOTP', confirmedAt: { not: null } },
    orderBy: { id: 'asc' },
  });
  for (const factor of factors) {
    if (await takeCode(prisma, key, factor, digits, 'use')) return { factorId: factor.id };
  }
  return null;
}

/** The current code of a Base32 `secret` (the demo seed's documented factor, the tests' authenticator app). */
export const totpCode = (secret: string, epochSeconds?: number): Promise<string> =>
  generate({ secret, ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }) });
