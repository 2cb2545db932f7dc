/** Route options the configuration calls share (001 §7): the two permissions, the answers, the audit actor. */
import { z } from 'zod';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';

/** Reading the configuration: READ_USERS. */
export const READ = { permission: 'READ_USERS' } as const;
/** Changing it: ADMIN; destructive (the route walker runs it on throwaway records only). */
export const CHANGE = { permission: 'ADMIN', destructive: true } as const;

/** The answers of a configuration call: `ok` (200), 304 (nothing changed), 404 (unknown id) and the errors. */
export const answers = (ok: z.ZodType) => ({ 200: ok, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS });

/** The audit actor of a signed-in user. */
export const actorOf = (auth: { userId: number; username: string }) => ({
  userId: auth.userId,
  username: auth.username,
});
