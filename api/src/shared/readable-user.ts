/**
 * Who may read one user's requests (the `.../user/{userId}` lists of 001 §7: access-modification requests,
 * profile-change requests, registrations): the user themself, or anyone with READ_USERS. Anyone else is
 * answered exactly as for a user who does not exist (issue 13: a record-level refusal looks like an unknown
 * record, so the call cannot tell which users exist).
 */
import type { PrismaClient } from '@portal/db';
import type { AuthContext } from '../auth/guard';
import { notFound } from '../http/errors';

/**
 * @returns `userId` when `actor` may read that user's requests and the user exists.
 * @throws HttpError 404 with `message` (the list's own 001 §8 text) otherwise.
 */
export async function readableUserId(
  prisma: PrismaClient,
  actor: AuthContext,
  userId: number,
  message: string,
): Promise<number> {
  if (userId !== actor.userId && !actor.permissions.includes('READ_USERS')) throw notFound(message);
  const user = await prisma.portalUser.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw notFound(message);
  return userId;
}
