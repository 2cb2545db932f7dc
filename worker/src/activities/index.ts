/** Builds the worker's activity implementations around one Prisma client and one SMTP transport. */
import type { PrismaClient } from '@portal/db';
import type { DigestActivities, LifecycleActivities } from '@portal/workflows';
import { type MailSettings, createTransport } from '../mail/transport';
import { createApplyOutsideEffects, createCommitSave } from './commit';
import { createSendReviewerDigest } from './digest';
import { createRecordMailFailure, createSendResolutionMail } from './mail';

export type { MailSettings } from '../mail/transport';

export type PortalActivities = LifecycleActivities & DigestActivities;

export function createActivities(prisma: PrismaClient, mail: MailSettings): PortalActivities {
  const transport = createTransport(mail);
  return {
    commitSave: createCommitSave(prisma),
    applyOutsideEffects: createApplyOutsideEffects(),
    sendResolutionMail: createSendResolutionMail(prisma, transport, mail),
    recordMailFailure: createRecordMailFailure(prisma),
    sendReviewerDigest: createSendReviewerDigest(prisma, transport, mail),
  };
}
