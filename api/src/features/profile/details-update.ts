/**
 * PUT /rest/secure/user_profile_mod (000 §7 User management, 001 §7 Own profile; 000 §4 Saving, §5 limits):
 * the signed-in user saves their own Details fields (organization, job title, phone and extension, mailing
 * address, country and state). 422 `fieldErrors` under the field's key ('unknown' for a country or state
 * not in the reference lists, the state checked against the chosen country), 304 when nothing changed,
 * 200 with the saved profile. Under the user's lock (`lockUserAccess`, shared with the administrator's
 * update_user), so an administrator's save and the user's own never interleave; one audit row per change.
 * Name and email are never written here (001 §2.10: they are requested).
 */
import {
  PROFILE_DETAILS_MESSAGES,
  ProfileDetailsBodySchema,
  ProfileSchema,
  type Profile,
  USER_DETAILS_FIELDS,
  type UserDetailsFields,
} from '@portal/contract';
import { lockUserAccess } from '@portal/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { notFound, notModified, unprocessable } from '../../http/errors';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { recordAudit } from '../../shared/audit-log';
import { proxyRulesOf } from '../../shared/proxy-capability';
import { referenceCodeErrors } from '../../shared/reference-codes';
import { loadProfile } from './profile-view';

/** The audit trail's entity type of a portal user (the same as the user detail's). */
const USER_ENTITY = 'PortalUser';
/** A transaction long enough for a lock wait, never unbounded. */
const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

/**
 * Saves `actor`'s Details fields. @returns the saved profile.
 * @throws HttpError 304 (nothing changed), 404 (the user is gone), 422 (`fieldErrors`).
 */
export async function updateProfileDetails(
  { prisma, cfg }: Pick<Deps, 'prisma' | 'cfg'>,
  actor: AuthContext,
  next: UserDetailsFields,
): Promise<Profile> {
  return prisma.$transaction(async (tx) => {
    await lockUserAccess(tx, actor.userId);
    const row = await tx.portalUser.findUnique({ where: { id: actor.userId } });
    if (!row) throw notFound(PROFILE_DETAILS_MESSAGES.updateFailed);
    const before = Object.fromEntries(USER_DETAILS_FIELDS.map((f) => [f, row[f]])) as UserDetailsFields;
    if (USER_DETAILS_FIELDS.every((f) => before[f] === next[f])) throw notModified();
    const errors = await referenceCodeErrors(tx, next);
    if (Object.keys(errors).length) throw unprocessable(errors);

    await tx.portalUser.update({ where: { id: row.id }, data: next });
    await recordAudit(
      tx,
      { userId: actor.userId, username: actor.username },
      { entityType: USER_ENTITY, entityId: row.id, action: 'UPDATED', before, after: next },
    );
    return loadProfile(tx, proxyRulesOf(cfg), row.id);
  }, TX_OPTIONS);
}

/** The route: any holder of USER saves their own details (SET_OWN_PASSWORD alone may not). */
export const profileDetailsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.put(
    '/rest/secure/user_profile_mod',
    {
      config: { permission: 'USER', destructive: true },
      schema: {
        body: ProfileDetailsBodySchema,
        response: { 200: ProfileSchema, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    (req) => updateProfileDetails(deps, requireAuth(req), req.body),
  );
};
