/** Builds the worker's activity implementations around one Prisma client and one SMTP transport. */
import type { PrismaClient } from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import type { DigestActivities, LifecycleActivities, ProxyBatchActivities } from '@portal/workflows';
import { createProxyBatchActivities } from '../kinds/proxy-batch';
import { type MailSettings, createTransport } from '../mail/transport';
import {
  createApplyOutsideEffects,
  createCommitSave,
  createReadCommittedSave,
  createUndoOutsideEffects,
} from './commit';
import { createSendReviewerDigest } from './digest';
import { createRecordMailFailure, createSendResolutionMail } from './mail';

export type { MailSettings } from '../mail/transport';

export type PortalActivities = LifecycleActivities & DigestActivities & ProxyBatchActivities;

/** `directory` serves the kinds' outside effects (a registration's entry); without it those saves fail. */
export function createActivities(
  prisma: PrismaClient,
  mail: MailSettings,
  directory?: DirectoryConfig,
): PortalActivities {
  const transport = createTransport(mail);
  return {
    commitSave: createCommitSave(prisma),
    readCommittedSave: createReadCommittedSave(prisma),
    applyOutsideEffects: createApplyOutsideEffects({ prisma, directory }),
    undoOutsideEffects: createUndoOutsideEffects({ prisma, directory }),
    sendResolutionMail: createSendResolutionMail(prisma, transport, mail),
    recordMailFailure: createRecordMailFailure(prisma),
    sendReviewerDigest: createSendReviewerDigest(prisma, transport, mail),
    ...createProxyBatchActivities(prisma),
  };
}
