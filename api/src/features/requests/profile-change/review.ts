/**
 * A reviewer's save of a profile-change request (001 §7 PUT /rest/secure/ldap_user_profile_mod_request/{id};
 * §2.10, §4), sent through the lifecycle's `review` update (`reviewRequest`): 200 with the fresh request once the
 * save is committed (saved as APPROVED: the name and email applied to the directory entry and the portal user),
 * 202 while still being processed (retrying with the same attempt key is safe), 304, 403, 404, 409 (another save
 * runs), 422 (the body's id is not the path's, stale version, illegal status, resolved request, the email taken).
 */
import {
  PROFILE_CHANGE_MESSAGES,
  type ProfileChangeRequest,
  type ReviewProcessing,
  type UpdateProfileChangeBodySchema,
} from '@portal/contract';
import { profileChangeDefinition } from '@portal/workflows';
import type { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, unprocessable } from '../../../http/errors';
import { refuseResolved, sendReview } from '../../../shared/review';
import { emailProblems } from './email-check';
import { WITH_USER, profileChangeView } from './view';
import { temporalUiOf } from '../../../shared/views';
import { withRequestSignature } from '../../../shared/request-signatures';

type UpdateBody = z.output<typeof UpdateProfileChangeBodySchema>;
const STATUS_KEY = 'requestStatus';

export async function reviewProfileChange(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  id: number,
  body: UpdateBody,
): Promise<ProfileChangeRequest | ReviewProcessing> {
  if (body.id !== id) throw unprocessable({ id: ['invalid'] });
  const row = await deps.prisma.profileChangeRequest.findUnique({ where: { id }, include: WITH_USER });
  if (!row) throw notFound(PROFILE_CHANGE_MESSAGES.loadFailed);
  return sendReview(
    deps,
    {
      def: profileChangeDefinition,
      requestId: id,
      attemptKey: body.attemptKey,
      statusKey: STATUS_KEY,
      actor,
      req,
      save: body,
      // Skipped for the retry of an attempt already made: that save may be what resolved the request.
      checks: async () => {
        refuseResolved(row.requestStatus, STATUS_KEY);
        // Checked before the update (the worker checks again before the directory write and inside the commit).
        if (body.requestStatus === 'APPROVED') {
          const problems = await emailProblems(deps.prisma, deps.directory, row.user, row.email);
          if (Object.keys(problems).length) throw unprocessable(problems);
        }
      },
    },
    async () => {
      const fresh = await deps.prisma.profileChangeRequest.findUniqueOrThrow({ where: { id }, include: WITH_USER });
      return withRequestSignature(deps, 'ProfileChangeRequest', profileChangeView(fresh, temporalUiOf(deps.cfg)));
    },
  );
}
