/** Builds the worker's activity implementations around one Prisma client. */
import type { PrismaClient } from '@portal/db';
import type { AccessChangeActivities } from '@portal/workflows';
import { createApplyApprovedAccess } from './apply-access';
import { createProjectTransition } from './projection';

export function createActivities(prisma: PrismaClient): AccessChangeActivities {
  return {
    projectTransition: createProjectTransition(prisma),
    applyApprovedAccess: createApplyApprovedAccess(prisma),
  };
}
