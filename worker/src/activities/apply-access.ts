/**
 * Applies an approved access-modification request to the subject's versioned user-access records
 * (000 §3 User access record; 001 §4 Apply Above Changes): NEW and CHANGE replace or add the requested
 * study role, REMOVAL removes it. A replaced record is kept, inactive, and the new version points at it
 * (priorAccessControlId, originalRevisionNumber). Idempotent per request (sourceRequestId).
 */
import type { Prisma, PrismaClient } from '@portal/db';
import { AccessControlSchema } from '@portal/contract';
import type { ApplyAccessInput } from '@portal/workflows';

type Tx = Prisma.TransactionClient;

export function createApplyApprovedAccess(prisma: PrismaClient) {
  return async function applyApprovedAccess(input: ApplyAccessInput): Promise<void> {
    await prisma.$transaction(async (tx) => {
      const done = await tx.userAccess.count({ where: { sourceRequestId: input.requestId } });
      if (done > 0) return;
      const request = await tx.accessModRequest.findUniqueOrThrow({ where: { id: input.requestId } });
      const blocks = AccessControlSchema.array().parse(request.accessControls);
      const changes: Prisma.InputJsonValue[] = [];
      for (const block of blocks) {
        const prior = await findPrior(tx, request.subjectUserId, block.roleName, request.existingUserAccessId);
        if (prior)
          await tx.userAccess.update({
            where: { id: prior.id },
            data: { inactive: true, lastModifiedBy: input.actor.username },
          });
        if (request.requestType === 'REMOVAL' && !prior) continue;
        const created = await tx.userAccess.create({
          data: {
            portalUserId: request.subjectUserId,
            roleName: block.roleName,
            inactive: request.requestType === 'REMOVAL',
            siteCodes: request.requestType === 'REMOVAL' ? (prior?.siteCodes ?? []) : block.siteCodes,
            laoIds: request.requestType === 'REMOVAL' ? (prior?.laoIds ?? []) : block.laoIds,
            studyNames: request.requestType === 'REMOVAL' ? (prior?.studyNames ?? []) : block.studyNames,
            systemAccessIds: request.requestType === 'REMOVAL' ? (prior?.systemAccessIds ?? []) : block.systemAccessIds,
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
          idempotencyKey: `${input.workflowId}:apply`,
        },
      });
    });
  };
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
