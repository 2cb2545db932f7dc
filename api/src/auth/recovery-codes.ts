/**
 * Recovery codes (issue 37; docs/decisions.md "Second factors"): ten single-use codes shown once, for a
 * person who lost the authenticator app. A code is five groups of four characters of a 32-letter alphabet
 * without look-alikes (100 bits); its first two groups are the row's `lookup`, so checking a code verifies one
 * argon2id hash, never ten. Only the hash is stored. Issuing replaces every earlier code of the person.
 */
import crypto from 'node:crypto';
import { type Argon2Params, argon2Hash, verifyPasswordHash } from '@portal/directory';
import type { PrismaClient } from '@portal/db';

/** How many codes a person holds. */
export const RECOVERY_CODE_COUNT = 10;

/** Crockford's Base32 letters: no I, L, O or U. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A new code: 'xxxx-xxxx-xxxx-xxxx-xxxx'. */
function newCode(): string {
  const bytes = crypto.randomBytes(20);
  const chars = [...bytes].map((b) => ALPHABET[b & 31]!).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** A code as typed: lower case, spaces and dashes dropped; null when it cannot be one. */
function normalise(code: string): string | null {
  const chars = code.toLowerCase().replace(/[\s-]+/g, '');
  return new RegExp(`^[${ALPHABET}]{20}$`).test(chars) ? chars : null;
}

const lookupOf = (chars: string): string => chars.slice(0, 8);

/**
 * Issues RECOVERY_CODE_COUNT new codes to `userId`, replacing every earlier one (used or not), hashed at
 * `params`. @returns the codes, to be shown once.
 */
export async function issueRecoveryCodes(
  prisma: PrismaClient,
  userId: number,
  params: Argon2Params,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const rows = await Promise.all(
    codes.map(async (code) => {
      const chars = normalise(code)!;
      return { portalUserId: userId, lookup: lookupOf(chars), hash: await argon2Hash(chars, params) };
    }),
  );
  await prisma.$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { portalUserId: userId } });
    await tx.recoveryCode.createMany({ data: rows });
  });
  return codes;
}

/**
 * A sign-in's second step with a recovery code: accepts an unused code of `userId` once (a conditional
 * UPDATE, so of two processes given the same code one wins). @returns whether it was accepted.
 */
export async function useRecoveryCode(prisma: PrismaClient, userId: number, code: string): Promise<boolean> {
  const chars = normalise(code);
  if (!chars) return false;
  const row = await prisma.recoveryCode.findFirst({
    where: { portalUserId: userId, lookup: lookupOf(chars), usedAt: null },
  });
  if (!row || !(await verifyPasswordHash(chars, row.hash))) return false;
  const taken = await prisma.recoveryCode.updateMany({
    where: { id: row.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  return taken.count === 1;
}

/** How many unused codes `userId` has left. */
export const recoveryCodesLeft = (prisma: PrismaClient, userId: number): Promise<number> =>
  prisma.recoveryCode.count({ where: { portalUserId: userId, usedAt: null } });
