import {
  FIELD_LIMITS,
  MESSAGES,
  translateFieldErrors,
  type AccessControl,
  type CreateAccessModRequestBody,
  type FieldErrors,
  type RequestType,
  type StudyRole,
  type System,
  type UserAccess,
} from '@portal/contract';
import { fixedSystemId, type RoleBlockErrors, type RoleBlockValue } from '../shared/RoleBlock';

/** The request form's values (001 §2.5, §3 Extended question answer). */
export interface AccessFormValues {
  accessControls: RoleBlockValue[];
  requesterComments: string;
}

let blockSeq = 0;
const nextKey = () => `block-${++blockSeq}`;

export function emptyBlock(questionNum: number, systems: readonly System[]): RoleBlockValue {
  const fixed = fixedSystemId(systems);
  return {
    key: nextKey(),
    questionNum,
    roleName: null,
    siteCodes: [],
    laoIds: [],
    studyNames: [],
    systemAccessIds: fixed ? [fixed] : [],
  };
}

/** A block pre-filled from an existing access record (a request to modify that access). */
export function blockFromAccess(access: UserAccess, systems: readonly System[]): RoleBlockValue {
  const fixed = fixedSystemId(systems);
  const ids = access.systemAccessIds.map(String);
  return {
    key: nextKey(),
    questionNum: 1,
    roleName: access.roleName,
    siteCodes: [...access.siteCodes],
    laoIds: [...access.laoIds],
    studyNames: [...access.studyNames],
    systemAccessIds: fixed && !ids.includes(fixed) ? [fixed, ...ids] : ids,
  };
}

/** 001 §3: a new block's questionNum is one above the highest existing one. */
export function nextQuestionNum(blocks: readonly RoleBlockValue[]): number {
  return Math.max(0, ...blocks.map((b) => b.questionNum)) + 1;
}

const LABELS = {
  roleName: 'Study Role',
  siteCodes: 'AOs',
  laoIds: 'LAOs',
  studyNames: 'Studies',
  systemAccessIds: 'Systems',
  requesterComments: 'Comments',
} as const;
const PLURAL = new Set(['siteCodes', 'laoIds', 'studyNames', 'systemAccessIds', 'requesterComments']);

function translate(field: keyof typeof LABELS, keys: readonly string[]): string[] {
  return keys.map((k) => translateFieldErrors(LABELS[field], [k], PLURAL.has(field)));
}

/** Client-side checks with the server's rules (000 §5, 001 §5 Role block rules), keyed by form path. */
export function validateAccessForm(
  values: AccessFormValues,
  studyRoles: readonly StudyRole[],
  systems: readonly System[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  const fixed = fixedSystemId(systems);
  const seen = new Set<string>();
  values.accessControls.forEach((block, i) => {
    const path = `accessControls.${i}`;
    const role = studyRoles.find((r) => r.roleName === block.roleName);
    if (!block.roleName || !role) {
      errors[`${path}.roleName`] = translate('roleName', ['required']).join('; ');
      return;
    }
    if (seen.has(role.roleName)) errors[`${path}.roleName`] = 'Each study role may be used only once per request';
    seen.add(role.roleName);
    if (role.siteRequired && block.siteCodes.length + block.laoIds.length === 0) {
      errors[`${path}.sites`] = MESSAGES.access.atLeastOneSite;
    }
    if (role.studyRequired && block.studyNames.length === 0) {
      errors[`${path}.studyNames`] = MESSAGES.access.atLeastOneStudy;
    }
    if (fixed && !block.systemAccessIds.includes(fixed)) {
      errors[`${path}.systemAccessIds`] = MESSAGES.access.fixedSystemRequired;
    }
  });
  if (values.requesterComments.length > FIELD_LIMITS.requesterComments) {
    errors.requesterComments = translate('requesterComments', ['size']).join('; ');
  }
  return errors;
}

/**
 * Server field errors (422, keys `accessControls[i].roleName|siteCodes|laoIds|studyNames|systemAccessIds`,
 * `requesterComments`) as form errors with labels (000 §5): laoIds and siteCodes both show under AO/LAO.
 */
export function serverErrorsToForm(fieldErrors: FieldErrors): { errors: Record<string, string>; unmatched: string[] } {
  const grouped: Record<string, string[]> = {};
  const unmatched: string[] = [];
  for (const [key, reasons] of Object.entries(fieldErrors)) {
    // 000 §5: server keys may say extendedQuestionAnswers for accessControls, and sites for siteCodes.
    const normalized = key.replace(/^extendedQuestionAnswers/, 'accessControls').replace(/\.sites$/, '.siteCodes');
    const block = /^accessControls\[(\d+)\]\.(\w+)$/.exec(normalized);
    if (block) {
      const [, index, field] = block as unknown as [string, string, string];
      if (field in LABELS) {
        const path = field === 'siteCodes' || field === 'laoIds' ? 'sites' : field;
        (grouped[`accessControls.${index}.${path}`] ??= []).push(...translate(field as keyof typeof LABELS, reasons));
        continue;
      }
    }
    if (normalized === 'requesterComments') {
      (grouped.requesterComments ??= []).push(...translate('requesterComments', reasons));
      continue;
    }
    unmatched.push(...reasons.map((r) => translateFieldErrors(key, [r])));
  }
  const errors = Object.fromEntries(Object.entries(grouped).map(([k, v]) => [k, [...new Set(v)].join('; ')]));
  return { errors, unmatched };
}

export function blockErrors(errors: Record<string, unknown>, index: number): RoleBlockErrors {
  const get = (field: string) => {
    const value = errors[`accessControls.${index}.${field}`];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    roleName: get('roleName'),
    sites: get('sites'),
    studyNames: get('studyNames'),
    systemAccessIds: get('systemAccessIds'),
  };
}

export function toAccessControl(block: RoleBlockValue): AccessControl {
  return {
    questionNum: block.questionNum,
    roleName: block.roleName ?? '',
    siteCodes: block.siteCodes,
    laoIds: block.laoIds,
    studyNames: block.studyNames,
    systemAccessIds: block.systemAccessIds.map(Number).filter((n) => Number.isInteger(n) && n > 0),
  };
}

/** POST /rest/secure/user_access_mod_request body (001 §7); a created request starts NEW (001 §4). */
export function toRequestBody(
  portalUserId: number,
  email: string,
  requestType: RequestType,
  blocks: readonly RoleBlockValue[],
  requesterComments: string,
): CreateAccessModRequestBody {
  return {
    portalUserId,
    email,
    requestType,
    requestStatus: 'NEW',
    accessControls: blocks.map(toAccessControl),
    requesterComments: requesterComments.trim(),
  };
}
