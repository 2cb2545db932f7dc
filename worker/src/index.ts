/** @portal/worker: the worker factory, activities, reconciler and digest schedule, for the process and tests. */
export { createWorker, workflowsPath } from './worker';
export {
  createActivities,
  type AuditSealSettings,
  type AuditVerifySettings,
  auditVerifySettings,
  type MailSettings,
  type PortalActivities,
  type ProvisioningSettings,
} from './activities';
export { WorkerConfigSchema, parseEnv } from './config';
export { reconcileUnstartedRequests, startReconciler } from './reconciler';
export { startLogoutNotice, unstartedLogoutNotices } from './sso-logout-reconcile';
export { listenForLogoutNotices } from './sso-logout-listener';
export { listenForProvisioningNotices, startProvisioningNotices } from './provisioning-notices';
export { ensureProvisioningSchedules } from './provisioning-schedules';
export { ensureReviewerDigestSchedule } from './digest-schedule';
export { ensureAccessExpirySchedule } from './access-expiry-schedule';
export { sendOnce } from './mail/outbox';
export { createTransport } from './mail/transport';
export { startUnstartedAccessReview, unstartedAccessReviews } from './access-review-reconcile';
export { ensureAuditSealSchedule } from './audit-seal-schedule';
