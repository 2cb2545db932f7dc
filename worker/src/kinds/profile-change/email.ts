/** Whether an email is held by another portal user (case-insensitive: sign-in finds people by either spelling). */
import type { PrismaClient } from '@portal/db';
import type { Tx } from '../types';

export async function emailTakenBy(db: Tx | PrismaClient, email: string, exceptUserId: number): Promise<boolean> {
  const other = await db.portalUser.findFirst({
    where: { id: { not: exceptUserId }, email: { equals: email, mode: 'insensitive' } },
    select: { id: true },
  });
  return other !== null;
}
