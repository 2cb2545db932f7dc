/** Builds the worker's activity implementations around one Prisma client and one SMTP transport. */
import { ACCESS_REVIEW_DEFAULTS, type AccessReviewSettings, PORTAL_RULES_DEFAULTS } from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import type {
  AccessExpiryActivities,
  AccessReviewActivities,
  AccessReviewScheduleActivities,
  ApprovalActivities,
  AuditSealActivities,
  AuditVerifyActivities,
  DigestActivities,
  LifecycleActivities,
  ProvisionActivities,
  ProvisionReconcileActivities,
  ProxyBatchActivities,
  SsoLogoutActivities,
} from '@portal/workflows';
import { createProxyBatchActivities } from '../kinds/proxy-batch';
import { type MailSettings, createTransport } from '../mail/transport';
import {
  createApplyOutsideEffects,
  createCommitSave,
  createReadCommittedSave,
  createUndoOutsideEffects,
} from './commit';
import { createAccessExpiryActivities } from './access-expiry';
import { type AuditSealSettings, createAuditSealActivities } from './audit-seal';
import { type AuditVerifySettings, createAuditVerifyActivities } from './audit-verify';
import { createAccessReviewCloseActivities } from './access-review-close';
import { createAccessReviewMailActivities } from './access-review-mail';
import { createAccessReviewScheduleActivities } from './access-review-schedule';
import { createAccessReviewSnapshotActivities } from './access-review-snapshot';
import { createSendReviewerDigest } from './digest';
import { createRecordMailFailure, createSendResolutionMail } from './mail';
import { type SsoSettings, createSsoLogoutActivities } from './sso-logout';
import { type ProvisioningSettings, createProvisioningActivities } from './provisioning';
import { createProvisionReconcileActivities } from './provisioning-reconcile';
import { createApprovalActivities } from './approval/stages';

export type { MailSettings } from '../mail/transport';
export type { SsoSettings } from './sso-logout';
export type { AuditSealSettings } from './audit-seal';
export type { ProvisioningSettings } from './provisioning';
export { type AuditVerifySettings, auditVerifySettings } from './audit-verify';

/** The approval stages' calendar (docs/decisions.md "Approval policies"): NETWORK_TIME_ZONE, NETWORK_HOLIDAYS. */
export interface WorkerApprovalSettings {
  timeZone: string;
  holidays: readonly string[];
}

/** The worker's campaign settings: the contract's, and the mail deadline of the campaigns it starts. */
export type WorkerAccessReviewSettings = AccessReviewSettings & { mailDeadline?: string };

export type PortalActivities = LifecycleActivities &
  DigestActivities &
  ProxyBatchActivities &
  SsoLogoutActivities &
  AccessExpiryActivities &
  AccessReviewActivities &
  AccessReviewScheduleActivities &
  AuditSealActivities &
  AuditVerifyActivities &
  ProvisionActivities &
  ProvisionReconcileActivities &
  ApprovalActivities;

/**
 * `directory` serves the kinds' outside effects (a registration's entry); without it those saves fail. `sso`
 * signs back-channel logout tokens; without it (single sign-on off) none is sent. `accessReview`: the study role
 * whose holders review their LAOs' items (ACCESS_REVIEW_STUDY_ROLE) and how long a scheduled campaign's mails
 * are retried (`mailDeadline`, MAIL_DEADLINE, as the API passes to the campaigns it starts; absent: the
 * workflow's own default). `proxyCommentMarker`: the marker of the comments a proxy batch files
 * (PROXY_COMMENT_MARKER, the API's default when absent). `provisioning`: PROVISIONING_KEY, which opens the SCIM
 * bearer tokens (issue 41); without it every convergence is retried until the key is set. `approval`: the
 * approval stages' calendar.
 */
export function createActivities(
  prisma: PrismaClient,
  mail: MailSettings,
  directory?: DirectoryConfig,
  sso: SsoSettings = { issuer: '', production: false },
  accessReview: WorkerAccessReviewSettings = { ACCESS_REVIEW_STUDY_ROLE: ACCESS_REVIEW_DEFAULTS.studyRole },
  proxyCommentMarker: string = PORTAL_RULES_DEFAULTS.proxyCommentMarker,
  auditSeal?: AuditSealSettings,
  auditVerify?: AuditVerifySettings,
  provisioning: ProvisioningSettings = {},
  approval: WorkerApprovalSettings = { timeZone: 'UTC', holidays: [] },
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
    ...createProxyBatchActivities(prisma, proxyCommentMarker),
    ...createSsoLogoutActivities(prisma, sso),
    ...createAccessExpiryActivities(prisma, transport, mail),
    ...createAccessReviewSnapshotActivities(prisma),
    ...createAccessReviewMailActivities(prisma, transport, mail, accessReview),
    ...createAccessReviewCloseActivities(prisma),
    ...createAccessReviewScheduleActivities(prisma, accessReview.mailDeadline),
    ...createAuditSealActivities(auditSeal),
    ...createAuditVerifyActivities(auditVerify),
    ...createProvisioningActivities(prisma, provisioning),
    ...createProvisionReconcileActivities(prisma, provisioning),
    ...createApprovalActivities(prisma, transport, mail, {
      ...approval,
      reviewerStudyRole: accessReview.ACCESS_REVIEW_STUDY_ROLE,
    }),
  };
}
