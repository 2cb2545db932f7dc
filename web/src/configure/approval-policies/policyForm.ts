import {
  APPROVAL_LIMITS,
  APPROVER_GROUP_LABELS,
  STAGE_APPROVERS,
  translateFieldErrors,
  type ApprovalPolicy,
  type ApprovalPolicyBody,
  type ApprovalStage,
  type ApproverGroup,
  type StageApprovers,
} from '@portal/contract';
import { ApiError } from '../../lib/apiClient';
import type { PageMessage } from '../../shared/ErrorAlert';

/** The policy editor's values: selects hold strings ('' before a study role is picked); stages in order. */
export interface StageValues {
  approvers: StageApprovers;
  deadlineDays: number | string;
  reminderDays: number | string;
  escalateTo: ApproverGroup;
}
export interface PolicyValues {
  studyRoleId: string;
  /** ANY_SYSTEM is 'Any system'. */
  systemAccessId: string;
  stages: StageValues[];
  active: boolean;
}

/** The system select's value for 'Any system'. */
export const ANY_SYSTEM = 'any';

export const NEW_STAGE: Record<StageApprovers, StageValues> = {
  LAO_STAFF: { approvers: 'LAO_STAFF', deadlineDays: 5, reminderDays: 1, escalateTo: 'USER_SUPPORT' },
  STUDY_APPROVERS: { approvers: 'STUDY_APPROVERS', deadlineDays: 3, reminderDays: 1, escalateTo: 'USER_SUPPORT' },
};

export function initialValues(policy: ApprovalPolicy | null): PolicyValues {
  return {
    studyRoleId: policy ? String(policy.studyRoleId) : '',
    systemAccessId: policy?.systemAccessId ? String(policy.systemAccessId) : ANY_SYSTEM,
    stages: policy ? policy.stages.map((s) => ({ ...s })) : [{ ...NEW_STAGE.LAO_STAFF }],
    active: policy?.active ?? true,
  };
}

export function toBody(values: PolicyValues, policy: ApprovalPolicy | null): ApprovalPolicyBody {
  return {
    studyRoleId: Number(values.studyRoleId),
    systemAccessId: values.systemAccessId === ANY_SYSTEM ? null : Number(values.systemAccessId),
    stages: values.stages.map((s) => ({
      approvers: s.approvers,
      deadlineDays: Number(s.deadlineDays),
      reminderDays: Number(s.reminderDays),
      escalateTo: s.escalateTo,
    })),
    active: values.active,
    ...(policy ? { versionno: policy.versionno } : {}),
  };
}

const isInt = (v: number | string, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The browser's checks, in the words the server's 422 reasons get (`REASONS` below). */
export function validate(values: PolicyValues): Record<string, string | null> {
  const errors: Record<string, string | null> = {
    studyRoleId: values.studyRoleId ? null : 'Study Role is required',
    stages: values.stages.length ? null : 'At least one stage is required',
  };
  const order = values.stages.map((s) => STAGE_APPROVERS.indexOf(s.approvers));
  if (order.some((o, i) => i > 0 && o <= order[i - 1]!)) errors.stages = REASONS.stageOrder!;
  const { deadlineDays: d, reminderDays: r } = APPROVAL_LIMITS;
  values.stages.forEach((s, i) => {
    errors[`stages.${i}.deadlineDays`] = isInt(s.deadlineDays, d.min, d.max)
      ? null
      : `Deadline must be a whole number of working days from ${d.min} to ${d.max}`;
    errors[`stages.${i}.reminderDays`] = !isInt(s.reminderDays, r.min, r.max)
      ? `Reminder must be a whole number of working days from ${r.min} to ${r.max}`
      : Number(s.reminderDays) >= Number(s.deadlineDays)
        ? REASONS.beforeDeadline!
        : null;
    errors[`stages.${i}.escalateTo`] = s.escalateTo === s.approvers ? REASONS.otherGroup! : null;
  });
  return errors;
}

/** The texts of the policy's own 422 reasons (the spec has none; written in the style of 001 §8). */
const REASONS: Record<string, string> = {
  beforeDeadline: 'The reminder must come before the deadline (fewer working days than the deadline).',
  otherGroup: 'A stage escalates to another group than its own approvers.',
  stageOrder: 'Each group may decide one stage only, LAO staff before study approvers.',
  unique: 'This study role (and system) already has a policy.',
};

const LABELS: Record<string, string> = {
  studyRoleId: 'Study Role',
  systemAccessId: 'System',
  stages: 'Stages',
  approvers: 'Approvers',
  deadlineDays: 'Deadline',
  reminderDays: 'Reminder',
  escalateTo: 'Escalate to',
};

/** 'stages[0].reminderDays' (the API's key) as the form's 'stages.0.reminderDays'. */
const formPath = (key: string) => key.replace(/\[(\d+)\]/g, '.$1');

/**
 * A refused save as the editor shows it: 422 fieldErrors at their fields (the stage's own field included),
 * the rest (global errors, unknown keys, 403, network) in the page message under `text`.
 */
export function describePolicyFailure(
  error: unknown,
  text: string,
): { fieldErrors: Record<string, string>; message: PageMessage } {
  const fieldErrors: Record<string, string> = {};
  const details: string[] = [];
  if (error instanceof ApiError) {
    for (const [key, reasons] of Object.entries(error.fieldErrors)) {
      const path = formPath(key);
      const label = LABELS[path.split('.').pop() ?? ''];
      const shown = reasons.map((r) => REASONS[r] ?? translateFieldErrors(label ?? key, [r])).join('; ');
      if (label) fieldErrors[path] = shown;
      else details.push(shown);
    }
    details.push(...error.globalErrors);
    if (error.status !== 422 && error.message) details.push(error.message);
  } else if (error instanceof Error && error.message) details.push(error.message);
  return { fieldErrors, message: { kind: 'error', text, details } };
}

const days = (n: number) => `${n} working day${n === 1 ? '' : 's'}`;

/** 'LAO staff (5 working days) → Study approvers (3 working days)'. */
export function stagesSummary(stages: readonly ApprovalStage[]): string {
  return stages.map((s) => `${APPROVER_GROUP_LABELS[s.approvers]} (${days(s.deadlineDays)})`).join(' → ');
}

export const POLICY_TEXTS = {
  loadFailed: 'Problem loading the approval policies.',
  saveFailed: 'Problem saving the approval policy.',
  deleteFailed: 'Problem deleting the approval policy.',
  saved: 'Approval policy saved',
  deleted: 'Approval policy deleted',
  empty: 'No approval policy yet: every request goes straight to the User Support review.',
  anySystem: 'Any system',
} as const;
