import {
  ACCESS_REVIEW_LIMITS,
  translateFieldErrors,
  type AccessReviewDecision,
  type AccessReviewReviewers,
  type CreateAccessReviewScheduleBody,
} from '@portal/contract';
import { ApiError } from '../../lib/apiClient';

/**
 * The New campaign form's values, what it sends, and how a 422 lands beside its fields (issue 25: ADMIN
 * creates a campaign, once or recurring).
 */
export interface CampaignFormValues {
  name: string;
  systemAccessIds: string[];
  roleNames: string[];
  laoIds: string[];
  reviewers: AccessReviewReviewers;
  durationDays: number | string;
  reminderEveryDays: number | string;
  defaultDecision: AccessReviewDecision;
  recurring: boolean;
  everyDays: number | string;
}

export const initialValues: CampaignFormValues = {
  name: '',
  systemAccessIds: [],
  roleNames: [],
  laoIds: [],
  reviewers: 'LAO_STAFF',
  durationDays: ACCESS_REVIEW_LIMITS.durationDays.default,
  reminderEveryDays: ACCESS_REVIEW_LIMITS.reminderEveryDays.default,
  defaultDecision: 'KEEP',
  recurring: false,
  everyDays: ACCESS_REVIEW_LIMITS.everyDays.default,
};

/** A number box's value: an empty box is sent as NaN, which the server refuses as a number like any typo. */
const num = (v: number | string) => (v === '' ? Number.NaN : Number(v));

/** The body of POST access_reviews (without everyDays) or access_review_schedules (with it). */
export function bodyOf(v: CampaignFormValues): CreateAccessReviewScheduleBody {
  return {
    name: v.name.trim(),
    scope: { systemAccessIds: v.systemAccessIds.map(Number), roleNames: v.roleNames, laoIds: v.laoIds },
    reviewers: v.reviewers,
    durationDays: num(v.durationDays),
    reminderEveryDays: num(v.reminderEveryDays),
    defaultDecision: v.defaultDecision,
    everyDays: num(v.everyDays),
  };
}

/** The form field of each server field (`scope.laoIds.3` is the LAOs box) and its label in messages. */
const FIELDS: Record<string, { field: keyof CampaignFormValues; label: string; plural?: boolean }> = {
  name: { field: 'name', label: 'Name' },
  'scope.systemAccessIds': { field: 'systemAccessIds', label: 'Systems', plural: true },
  'scope.roleNames': { field: 'roleNames', label: 'Study Roles', plural: true },
  'scope.laoIds': { field: 'laoIds', label: 'LAOs', plural: true },
  reviewers: { field: 'reviewers', label: 'Reviewers', plural: true },
  durationDays: { field: 'durationDays', label: 'Duration' },
  reminderEveryDays: { field: 'reminderEveryDays', label: 'Reminder interval' },
  defaultDecision: { field: 'defaultDecision', label: 'Default for undecided items' },
  everyDays: { field: 'everyDays', label: 'Interval' },
};

/**
 * Splits a failed save into texts beside fields (422 fieldErrors, an element's error shown on its list) and the
 * rest (global errors, unknown keys, 403, network) for the page message.
 */
export function failureOf(error: unknown): {
  fields: Partial<Record<keyof CampaignFormValues, string>>;
  details: string[];
} {
  const fields: Partial<Record<keyof CampaignFormValues, string>> = {};
  const details: string[] = [];
  if (!(error instanceof ApiError)) return { fields, details: error instanceof Error ? [error.message] : [] };
  for (const [key, reasons] of Object.entries(error.fieldErrors)) {
    const known = FIELDS[key.replace(/\.\d+$/, '')];
    if (!known) {
      details.push(translateFieldErrors(key, reasons));
      continue;
    }
    const text = translateFieldErrors(known.label, reasons, known.plural);
    fields[known.field] = fields[known.field] ? `${fields[known.field]}; ${text}` : text;
  }
  details.push(...error.globalErrors);
  if (error.status !== 422 && error.message) details.push(error.message);
  return { fields, details };
}
