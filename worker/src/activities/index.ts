/** Builds the worker's activity implementations around one Prisma client. */
import type { PrismaClient } from '@portal/db';
import type { AccessChangeActivities } from '@portal/workflows';
import { createApplyApprovedAccess } from './apply-access';
import { createSendResolutionMail, type MailSettings } from './mail';
import { createProjectTransition } from './projection';

export type { MailSettings } from './mail';

export function createActivities(prisma: PrismaClient, mail: MailSettings): AccessChangeActivities {
  return {
    projectTransition: createProjectTransition(prisma),
    applyApprovedAccess: createApplyApprovedAccess(prisma),
    sendResolutionMail: createSendResolutionMail(prisma, mail),
  };
}
