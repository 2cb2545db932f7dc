/**
 * 'Email address already exists in database' (001 §8 LDAP profile modification) and its directory twin, checked
 * when a request is filed and again before a reviewer's approval is sent (the worker checks once more before the
 * directory write and inside the commit).
 */
import { type FieldErrors, PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { type DirectoryConfig, findPeopleByEmail } from '@portal/directory';

/**
 * The fieldErrors of `email` when another portal user holds it (case-insensitive), or another directory entry
 * than the user's own (`doesntExistInLdap`, 000 §5). Empty when the email is free. A directory that cannot be
 * reached is not a refusal: the worker's directory write checks again and is retried.
 */
export async function emailProblems(
  prisma: PrismaClient,
  directory: DirectoryConfig,
  user: { id: number; uuid: string | null },
  email: string,
): Promise<FieldErrors> {
  const other = await prisma.portalUser.findFirst({
    where: { id: { not: user.id }, email: { equals: email, mode: 'insensitive' } },
    select: { id: true },
  });
  if (other) return { email: [PROFILE_CHANGE_MESSAGES.emailInUse] };
  const entries = await findPeopleByEmail(directory, email).catch(() => []);
  if (entries.some((e) => e.uuid !== user.uuid)) return { email: ['doesntExistInLdap'] };
  return {};
}
