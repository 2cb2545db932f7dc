/**
 * The approval's effect outside the database (REQUEST-LIFECYCLE rule 3), run before its commit: the new
 * directory entry is created under the registration's workflow id as a stable key (a retry after a crash
 * finds the entry it made: one entry), or the chosen existing entry is linked (compare, then set). The entry
 * found or made is recorded on the registration row, where the approving commit reads it.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { approvalProblems } from '@portal/contract';
import { DirectoryConflictError, ensureRegisteredEntry, linkExistingEntry } from '@portal/directory';
import { NON_RETRYABLE_ERRORS, type OutsideEffectsInput } from '@portal/workflows';
import type { OutsideEffectsContext } from '../types';
import { invalid, readApproval } from './payload';

/** Directory uidNumbers of registered people: far above the seeded users' 10,000 + id. */
const REGISTERED_UID_BASE = 1_000_000;

export async function createOrLinkEntry(ctx: OutsideEffectsContext, input: OutsideEffectsInput): Promise<void> {
  const { prisma, directory } = ctx;
  if (!directory) throw invalid('the worker has no directory configured (LDAP_URL)');
  const reg = await prisma.registration.findUnique({ where: { id: input.requestId } });
  if (!reg) {
    throw ApplicationFailure.nonRetryable(
      `registration ${input.requestId} not found`,
      NON_RETRYABLE_ERRORS.requestNotFound,
    );
  }
  const choice = readApproval(input.payload, input.requestId);
  const problems = approvalProblems(choice, reg.email);
  if (problems) throw invalid(`registration ${reg.id}: ${JSON.stringify(problems)}`);
  try {
    const entry = choice.existingAuthAccountUuid
      ? await linkExistingEntry(directory, choice.existingAuthAccountUuid, choice.gecos)
      : await ensureRegisteredEntry(directory, {
          key: input.workflowId,
          username: choice.username,
          firstName: reg.firstName,
          lastName: reg.lastName,
          email: reg.email,
          gecos: choice.gecos,
          uidNumber: REGISTERED_UID_BASE + reg.id,
        });
    await prisma.registration.update({
      where: { id: reg.id },
      data: {
        directoryUuid: entry.uuid,
        username: entry.username,
        gecos: entry.gecos,
        accountType: choice.accountType,
      },
    });
  } catch (err) {
    // A taken username or a vanished entry cannot succeed on retry; the reviewer is told by the failed save.
    if (err instanceof DirectoryConflictError) throw invalid(`registration ${reg.id}: ${err.message}`);
    throw err;
  }
}
