/**
 * The effect of approving an access-modification request (000 §3 User access record; 001 §4): NEW and
 * CHANGE replace or add the requested study role, REMOVAL removes it. A replaced record is kept, inactive,
 * and the new version points at it (priorAccessControlId, originalRevisionNumber). Runs inside the commit
 * transaction of the approving save, so the access records and the request row are written together or not
 * at all (REQUEST-LIFECYCLE rule 2); the caller holds the subject's access lock (rule 7).
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Prisma } from '@portal/db';
import { AccessControlSchema } from '@portal/contract';
import { type CommitSaveInput, NON_RETRYABLE_ERRORS } from '@portal/workflows';
import type { Tx } from '../types';

/** Applies the request's blocks and writes one `APPLY_<type>` audit row, keyed `<workflowId>:<version>:apply`. */
export async function applyApprovedAccess(tx: Tx, input: CommitSaveInput): Promise<void> {
  const request = await tx.accessModRequest.findUniqueOrThrow({ where: { id: input.requestId } });
  const parsed = AccessControlSchema.array().safeParse(request.accessControls);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(
      `request ${input.requestId} holds an invalid access body`,
      NON_RETRYABLE_ERRORS.invalidStoredBody,
    );
  }
  const changes: Prisma.InputJsonValue[] = [];
  for (const block of parsed.data) {
    const prior = await findPrior(tx, request.subjectUserId, block.roleName, request.existingUserAccessId);
    if (prior) {
      await tx.userAccess.update({
        where: { id: prior.id },
        data: { inactive: true, lastModifiedBy: input.actor.username },
      });
    }
    // A removal of a role no longer held changes nothing, but is still audited below (rule 4).
    if (request.requestType === 'REMOVAL' && !prior) continue;
    const removal = request.requestType === 'REMOVAL';
    const created = await tx.userAccess.create({
      data: {
        portalUserId: request.subjectUserId,
        roleName: block.roleName,
        inactive: removal,
        siteCodes: removal ? (prior?.siteCodes ?? []) : block.siteCodes,
        laoIds: removal ? (prior?.laoIds ?? []) : block.laoIds,
        studyNames: removal ? (prior?.studyNames ?? []) : block.studyNames,
        systemAccessIds: removal ? (prior?.systemAccessIds ?? []) : block.systemAccessIds,
        versionno: prior ? prior.versionno + 1 : 1,
        priorAccessControlId: prior?.id ?? null,
        originalRevisionNumber: prior ? (prior.originalRevisionNumber ?? prior.id) : null,
        sourceRequestId: input.requestId,
        createdBy: input.actor.username,
        lastModifiedBy: input.actor.username,
      },
    });
    changes.push({
      roleName: block.roleName,
      priorId: prior?.id ?? null,
      newId: created.id,
      inactive: created.inactive,
    });
  }
  await tx.auditEvent.create({
    data: {
      actorUserId: input.actor.userId,
      actorUsername: input.actor.username,
      entityType: 'UserAccess',
      entityId: String(request.subjectUserId),
      action: `APPLY_${request.requestType}`,
      after: { requestId: input.requestId, changes },
      workflowId: input.workflowId,
      idempotencyKey: `${input.workflowId}:${input.version}:apply`,
    },
  });
}

async function findPrior(tx: Tx, portalUserId: number, roleName: string, existingUserAccessId: number | null) {
  if (existingUserAccessId) {
    const existing = await tx.userAccess.findFirst({
      where: { id: existingUserAccessId, portalUserId, inactive: false },
    });
    if (existing && existing.roleName === roleName) return existing;
  }
  return tx.userAccess.findFirst({
    where: { portalUserId, roleName, inactive: false },
    orderBy: { versionno: 'desc' },
  });
}
