/**
 * The approval's effect outside the database (REQUEST-LIFECYCLE rule 3; 001 §4 "Profile-change name and email
 * take effect only when saved as Approved"): the requested first name, last name and email are written to the
 * user's directory entry before the approving commit writes them to the portal user. Compare, then set
 * (`writePersonFields` writes only what differs), so a retry after a lost completion or a directory that was
 * away writes nothing twice. The username and gecos stay as they are.
 *
 * The email taken by another portal user or directory entry ('Email address already exists in database',
 * checked here under the address's lock before the write, and again in the commit) is answered as the commit's
 * refusal (422 under `email`), nothing written; the entry gone can never succeed on retry (non-retryable).
 * Anything else (the directory unreachable) is retried by Temporal.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { PersonFieldsConflictError, writePersonFields } from '@portal/directory';
import { NON_RETRYABLE_ERRORS, type OutsideEffectsInput } from '@portal/workflows';
import { underAddressLock } from '../address-lock';
import type { OutsideEffectsContext, Refusal, UndoAudit } from '../types';
import { emailTakenBy } from './email';

/** The profile-change request the effect is for, with the portal user it changes (null when gone). */
const requestWithUser = ({ prisma }: OutsideEffectsContext, input: OutsideEffectsInput) =>
  prisma.profileChangeRequest.findUnique({ where: { id: input.requestId }, include: { user: true } });

export async function applyProfileToDirectory(
  ctx: OutsideEffectsContext,
  input: OutsideEffectsInput,
): Promise<Refusal | null> {
  const { prisma, directory } = ctx;
  const request = await requestWithUser(ctx, input);
  if (!request) {
    throw ApplicationFailure.nonRetryable(
      `profile-change request ${input.requestId} not found`,
      NON_RETRYABLE_ERRORS.requestNotFound,
    );
  }
  const { user } = request;
  // One approval per address at a time reaches the directory (issue 21 case 4): the second finds the first's
  // entry (or portal user) holding it and is refused before any write, and stays rejectable.
  return underAddressLock(prisma, request.email, async (tx) => {
    if (await emailTakenBy(tx, request.email, user.id)) return emailInUse();
    // A portal user without a directory entry has nothing outside the database to change.
    if (!user.uuid) return null;
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
      return null;
    } catch (err) {
      if (!(err instanceof PersonFieldsConflictError)) throw err;
      if (err.reason === 'emailTaken') return emailInUse();
      throw ApplicationFailure.nonRetryable(
        `profile-change request ${request.id}: ${err.message}`,
        NON_RETRYABLE_ERRORS.invalidStoredBody,
      );
    }
  });
}

/** 'Email address already exists in database' (001 §8) under the request's email field, as the commit refuses it. */
const emailInUse = (): Refusal => ({
  outcome: 'REFUSED',
  failure: 'INVALID',
  fieldErrors: { email: [PROFILE_CHANGE_MESSAGES.emailInUse] },
  globalErrors: [],
});

/**
 * Undoes an approval's directory write that may have run (issue 21 case 2): the user's entry gets back the
 * name and email the portal user still holds (the commit writes the new ones only on approval). Compare, then
 * set: nothing is written, and nothing audited, when the entry already holds them. Under the approval's address
 * lock (the requested email), so an approval's write still on its way (slapd frozen) has landed, or given up,
 * before the entry is compared; a restore is audited (DIRECTORY_RESTORED) before that lock is let go.
 */
export async function restoreProfileInDirectory(
  ctx: OutsideEffectsContext,
  input: OutsideEffectsInput,
  audit: UndoAudit,
): Promise<void> {
  const { prisma, directory } = ctx;
  const request = await requestWithUser(ctx, input);
  if (!request?.user.uuid || !directory) return;
  const { user } = request;
  const restored = { firstName: user.firstName, lastName: user.lastName, email: user.email };
  await underAddressLock(prisma, request.email, async (tx) => {
    const changed = await writePersonFields(directory, user.uuid!, {
      username: user.username,
      gecos: user.gecos,
      ...restored,
    });
    if (changed.length === 0) return;
    await audit(tx, {
      action: 'DIRECTORY_RESTORED',
      entityType: 'PortalUser',
      entityId: String(user.id),
      before: { firstName: request.firstName, lastName: request.lastName, email: request.email },
      after: restored,
    });
  });
}
