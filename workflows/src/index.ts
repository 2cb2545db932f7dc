/**
 * Workflow definitions, bundled by the worker from this file (`workflowsPath`). Export only workflow
 * functions here; clients import messages and types from './client'.
 */
export { accessChangeWorkflow } from './access-change/workflow';
export { registrationWorkflow } from './registration/workflow';
export { profileChangeWorkflow } from './profile-change/workflow';
export { reviewerDigestWorkflow } from './digest/workflow';
export { proxyBatchWorkflow } from './proxy-batch/workflow';
export { ssoLogoutWorkflow } from './sso-logout/workflow';
export { accessExpiryWorkflow } from './access-expiry/workflow';
export { accessReviewWorkflow } from './access-review/workflow';
export { accessReviewScheduledWorkflow } from './access-review/scheduled-workflow';
export { auditSealWorkflow } from './audit-seal/workflow';
export { auditVerifyWorkflow } from './audit-verify/workflow';
export { provisionWorkflow } from './provisioning/workflow';
export { provisionReconcileWorkflow } from './provisioning/reconcile-workflow';
