import type { ApprovalPolicy, RequestApprovalView, RequestStageView } from '@portal/contract';

/**
 * Approval policies in component tests: a policy, a request's stages (`approvalView`: stage 1 LAO staff open,
 * stage 2 study approvers waiting, by default) and one stage.
 */
export const policyFixture = (patch: Partial<ApprovalPolicy> = {}): ApprovalPolicy => ({
  id: 30,
  studyRoleId: 1,
  roleName: 'Investigator',
  systemAccessId: null,
  systemName: null,
  stages: [{ approvers: 'LAO_STAFF', deadlineDays: 5, reminderDays: 1, escalateTo: 'USER_SUPPORT' }],
  active: true,
  versionno: 2,
  lastModifiedBy: 'admin',
  dchng: '2026-01-02T03:04:05Z',
  ...patch,
});

export const stageFixture = (patch: Partial<RequestStageView> = {}): RequestStageView => ({
  stage: 1,
  approvers: 'LAO_STAFF',
  group: 'LAO_STAFF',
  state: 'OPEN',
  openedAt: '2026-01-02T03:04:05Z',
  remindAt: '2026-01-08T03:04:05Z',
  deadlineAt: '2099-01-09T03:04:05Z',
  escalatedAt: null,
  decidedAt: null,
  decidedBy: null,
  comment: null,
  ...patch,
});

export const approvalView = (patch: Partial<RequestApprovalView> = {}): RequestApprovalView => ({
  stages: [
    stageFixture(),
    stageFixture({
      stage: 2,
      approvers: 'STUDY_APPROVERS',
      group: 'STUDY_APPROVERS',
      state: 'WAITING',
      openedAt: null,
      remindAt: null,
      deadlineAt: null,
    }),
  ],
  currentStage: 1,
  mayDecide: true,
  ...patch,
});
