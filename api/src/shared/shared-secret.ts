/**
 * Secrets every API process must share when configuration sets none (issue 24): the first process that needs
 * one makes it at random and stores it in "SharedSecret"; every process, that one included, then reads the
 * stored value, so two processes never sign with keys of their own. A configured value always wins.
 */
import crypto from 'node:crypto';
import type { PrismaClient } from '@portal/db';

/** The names of the stored secrets. */
export type SharedSecretName = 'captcha-hmac-key';

/**
 * `configured` when set; otherwise the stored secret `name`, made (32 random bytes, base64url) when missing.
 * Two processes starting together both insert-or-keep, then read the one row that won.
 */
export async function sharedSecret(prisma: PrismaClient, name: SharedSecretName, configured?: string): Promise<string> {
  if (configured) return configured;
  await prisma.sharedSecret.createMany({
    data: [{ name, value: crypto.randomBytes(32).toString('base64url') }],
    skipDuplicates: true,
  });
  return (await prisma.sharedSecret.findUniqueOrThrow({ where: { name } })).value;
}
