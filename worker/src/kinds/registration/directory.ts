/**
 * The approval's effect outside the database (REQUEST-LIFECYCLE rule 3), run before its commit: the new
 * directory entry is created under the registration's workflow id as a stable key (a retry after a crash
 * finds the entry it made: one entry), or the chosen existing entry is linked (compare, then set). The entry
 * found or made is recorded on the registration row, where the approving commit reads it.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { approvalProblems } from '@portal/contract';
import {
  DirectoryConflictError,
  ensureRegisteredEntry,
  findRegisteredEntry,
  linkExistingEntry,
  removeRegisteredEntry,
} from '@portal/directory';
import { NON_RETRYABLE_ERRORS, type OutsideEffectsInput } from '@portal/workflows';
import { underAddressLock } from '../address-lock';
import type { OutsideEffectsContext, UndoAudit } from '../types';
import { invalid, readApproval } from './payload';

/** Directory uidNumbers of registered people: far above the seeded users' 10,000 + id. */
const REGISTERED_UID_BASE = 1_000_000;

export async function createOrLinkEntry(ctx: OutsideEffectsContext, input: OutsideEffectsInput): Promise<null> {
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
  const problems = approvalProblems(choice, reg.email, choice.organisationEmailDomains);
  if (problems) throw invalid(`registration ${reg.id}: ${JSON.stringify(problems)}`);
  // Directory writes of one address are serialised with profile changes' and with undos.
  return underAddressLock(prisma, reg.email, async (tx) => {
    try {
      // An earlier approval whose commit was refused made an entry for another choice (issue 21 case 3): this
      // approval's choice is the one applied, so that entry goes first.
      const earlier = await findRegisteredEntry(directory, input.workflowId);
      if (earlier && (choice.existingAuthAccountUuid || earlier.username !== choice.username)) {
        await removeRegisteredEntry(directory, input.workflowId);
      }
      const made = choice.existingAuthAccountUuid
        ? null
        : await ensureRegisteredEntry(directory, {
            key: input.workflowId,
            username: choice.username,
            firstName: reg.firstName,
            lastName: reg.lastName,
            email: reg.email,
            gecos: choice.gecos,
            uidNumber: REGISTERED_UID_BASE + reg.id,
          });
      // Linking, or an entry made earlier for the same username: compare, then set the chosen gecos.
      const entry = await linkExistingEntry(directory, made?.uuid ?? choice.existingAuthAccountUuid!, choice.gecos);
      await tx.registration.update({
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
    return null;
  });
}

/**
 * Undoes an approval's directory effect (issue 21 cases 2 and 3): removes the entry this registration created
 * (found by its workflow id; an entry it only linked is never removed, nor one a portal user holds) and forgets
 * the recorded choice on the row. Under the approval's address lock, so an approval's write still on its way
 * (slapd frozen) has landed, or given up, before the entry is looked for; a removal is audited
 * (DIRECTORY_ENTRY_REMOVED) before that lock is let go.
 */
export async function removeCreatedEntry(
  ctx: OutsideEffectsContext,
  input: OutsideEffectsInput,
  audit: UndoAudit,
): Promise<void> {
  const { prisma, directory } = ctx;
  if (!directory) throw invalid('the worker has no directory configured (LDAP_URL)');
  const reg = await prisma.registration.findUnique({ where: { id: input.requestId } });
  if (!reg) {
    throw ApplicationFailure.nonRetryable(
      `registration ${input.requestId} not found`,
      NON_RETRYABLE_ERRORS.requestNotFound,
    );
  }
  await underAddressLock(prisma, reg.email, async (tx) => {
    const found = await findRegisteredEntry(directory, input.workflowId);
    const held = found && (await tx.portalUser.findUnique({ where: { uuid: found.uuid } }));
    if (found && !held) await removeRegisteredEntry(directory, input.workflowId);
    await tx.registration.update({
      where: { id: input.requestId },
      data: { directoryUuid: null, username: null, gecos: null, accountType: null },
    });
    if (found && !held) {
      await audit(tx, {
        action: 'DIRECTORY_ENTRY_REMOVED',
        entityType: 'Registration',
        entityId: String(input.requestId),
        before: { uuid: found.uuid, username: found.username },
        after: {},
      });
    }
  });
}
