/**
 * Projection activity: writes an access-change transition to the AccessModRequest read model and the audit
 * trail in one transaction. Idempotent per (workflowId, version): a retry after a lost acknowledgement finds
 * the row already at `version` and the audit key taken, and writes nothing.
 */
import type { PrismaClient } from '@portal/db';
import type { ProjectTransitionInput } from '@portal/workflows';

export function createProjectTransition(prisma: PrismaClient) {
  return async function projectTransition(input: ProjectTransitionInput): Promise<void> {
    await prisma.$transaction(async (tx) => {
      const current = await tx.accessModRequest.findUniqueOrThrow({ where: { id: input.requestId } });
      if (current.versionno >= input.version) return;
      const updated = await tx.accessModRequest.update({
        where: { id: input.requestId },
        data: {
          requestStatus: input.toStatus,
          reviewerComments: input.reviewerComments,
          sysaidTicket: input.sysaidTicket,
          versionno: input.version,
          lastModifiedBy: input.actor.username,
          dchng: new Date(),
        },
      });
      await tx.auditEvent.create({
        data: {
          actorUserId: input.actor.userId,
          actorUsername: input.actor.username,
          entityType: 'AccessModRequest',
          entityId: String(input.requestId),
          action: input.fromStatus === input.toStatus ? 'REVIEW_SAVED' : `STATUS_${input.toStatus}`,
          before: {
            requestStatus: current.requestStatus,
            reviewerComments: current.reviewerComments,
            sysaidTicket: current.sysaidTicket,
            versionno: current.versionno,
          },
          after: {
            requestStatus: updated.requestStatus,
            reviewerComments: updated.reviewerComments,
            sysaidTicket: updated.sysaidTicket,
            versionno: updated.versionno,
          },
          workflowId: input.workflowId,
          idempotencyKey: `${input.workflowId}:${input.version}`,
        },
      });
    });
  };
}
