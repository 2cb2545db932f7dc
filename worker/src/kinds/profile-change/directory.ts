/**
 * The approval's effect outside the database (REQUEST-LIFECYCLE rule 3; 001 §4 "Profile-change name and email
 * take effect only when saved as Approved"): the requested first name, last name and email are written to the
 * user's directory entry before the approving commit writes them to the portal user. Compare, then set
 * (`writePersonFields` writes only what differs), so a retry after a lost completion or a directory that was
 * away writes nothing twice. The username and gecos stay as they are.
 *
 * Refusals that can never succeed on retry are non-retryable (the save fails, the request stays as it was and can
 * still be rejected): the email taken by another portal user ('Email address already exists in database',
 * checked here before the write and again in the commit) or by another directory entry, or the entry gone.
 * Anything else (the directory unreachable) is retried by Temporal.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { PersonFieldsConflictError, writePersonFields } from '@portal/directory';
import { NON_RETRYABLE_ERRORS, type OutsideEffectsInput } from '@portal/workflows';
import type { OutsideEffectsContext, UndoneEffect } from '../types';
import { emailTakenBy } from './email';

/** ApplicationFailure type of an approval whose email another portal user or entry holds. */
export const EMAIL_IN_USE_FAILURE = 'EMAIL_IN_USE';

export async function applyProfileToDirectory(ctx: OutsideEffectsContext, input: OutsideEffectsInput): Promise<void> {
  const { prisma, directory } = ctx;
  const request = await prisma.profileChangeRequest.findUnique({
    where: { id: input.requestId },
    include: { user: true },
  });
  if (!request) {
    throw ApplicationFailure.nonRetryable(
      `profile-change request ${input.requestId} not found`,
      NON_RETRYABLE_ERRORS.requestNotFound,
    );
  }
  const { user } = request;
  if (await emailTakenBy(prisma, request.email, user.id)) {
    throw ApplicationFailure.nonRetryable(PROFILE_CHANGE_MESSAGES.emailInUse, EMAIL_IN_USE_FAILURE);
  }
  // A portal user without a directory entry has nothing outside the database to change.
  if (!user.uuid) return;
  if (!directory) {
    throw ApplicationFailure.nonRetryable(
      'the worker has no directory configured (LDAP_URL)',
      NON_RETRYABLE_ERRORS.invalidStoredBody,
    );
  }
  try {
    await writePersonFields(directory, user.uuid, {
      username: user.username,
      gecos: user.gecos,
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email,
    });
  } catch (err) {
    if (!(err instanceof PersonFieldsConflictError)) throw err;
    const type = err.reason === 'emailTaken' ? EMAIL_IN_USE_FAILURE : NON_RETRYABLE_ERRORS.invalidStoredBody;
    throw ApplicationFailure.nonRetryable(`profile-change request ${request.id}: ${err.message}`, type);
  }
}

/**
 * Undoes an approval's directory write that may have run (issue 21 case 2): the user's entry gets back the
 * name and email the portal user still holds (the commit writes the new ones only on approval). Compare, then
 * set: nothing is written, and nothing audited, when the entry already holds them.
 */
export async function restoreProfileInDirectory(
  ctx: OutsideEffectsContext,
  input: OutsideEffectsInput,
): Promise<UndoneEffect | null> {
  const { prisma, directory } = ctx;
  const request = await prisma.profileChangeRequest.findUnique({
    where: { id: input.requestId },
    include: { user: true },
  });
  if (!request?.user.uuid || !directory) return null;
  const { user } = request;
  const restored = { firstName: user.firstName, lastName: user.lastName, email: user.email };
  const changed = await writePersonFields(directory, user.uuid!, {
    username: user.username,
    gecos: user.gecos,
    ...restored,
  });
  if (changed.length === 0) return null;
  return {
    action: 'DIRECTORY_RESTORED',
    entityType: 'PortalUser',
    entityId: String(user.id),
    before: { firstName: request.firstName, lastName: request.lastName, email: request.email },
    after: restored,
  };
}
