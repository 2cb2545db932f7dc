import {
  FIELD_LIMITS,
  translateFieldErrors,
  type CreateAccessModRequestBody,
  type FieldErrors,
  type RequestType,
  type StudyRole,
  type System,
  type UserAccess,
} from '@portal/contract';
import { fixedSystemId, type RoleBlockValue } from '../../../shared/RoleBlock';
import {
  copyBlock,
  serverErrorsToForm as blockServerErrorsToForm,
  toAccessControl,
  validateBlocks,
} from '../../../shared/roleBlockForm';

// The role-block rules are shared with the registration forms (shared/roleBlockForm.ts).
export { blockErrors, emptyBlock, nextQuestionNum, toAccessControl } from '../../../shared/roleBlockForm';

/** The request form's values (001 §2.5, §3 Extended question answer). */
export interface AccessFormValues {
  accessControls: RoleBlockValue[];
  requesterComments: string;
}

/** A block pre-filled from an existing access record (a request to modify that access). */
export function blockFromAccess(access: UserAccess, systems: readonly System[]): RoleBlockValue {
  const fixed = fixedSystemId(systems);
  const ids = access.systemAccessIds.map(String);
  return copyBlock({
    key: '',
    questionNum: 1,
    roleName: access.roleName,
    siteCodes: [...access.siteCodes],
    laoIds: [...access.laoIds],
    studyNames: [...access.studyNames],
    systemAccessIds: fixed && !ids.includes(fixed) ? [fixed, ...ids] : ids,
    // Issue 25: an extension is a modify request with a later end date.
    accessEndDate: access.accessEndDate ?? '',
  });
}

/** `block` with `systemId` among its requested systems (the system a refused single sign-on asked for, issue 22). */
export function withSystem(block: RoleBlockValue, systemId: string | undefined): RoleBlockValue {
  if (!systemId || block.systemAccessIds.includes(systemId)) return block;
  return { ...block, systemAccessIds: [...block.systemAccessIds, systemId] };
}

/**
 * The block after a change in the form: a preselected system (`?systemId=`) stays requested in the first
 * block when its study role changes (choosing a role replaces the systems with the role's defaults); an
 * unticked one stays unticked until the role changes.
 */
export function keepPreselected(
  previous: RoleBlockValue,
  next: RoleBlockValue,
  preselected: string | undefined,
): RoleBlockValue {
  return next.roleName !== previous.roleName ? withSystem(next, preselected) : next;
}

/** Client-side checks with the server's rules (000 §5, 001 §5 Role block rules), keyed by form path. */
export function validateAccessForm(
  values: AccessFormValues,
  studyRoles: readonly StudyRole[],
  systems: readonly System[],
): Record<string, string> {
  const errors = validateBlocks(values.accessControls, studyRoles, systems);
  if (values.requesterComments.length > FIELD_LIMITS.requesterComments) {
    errors.requesterComments = translateFieldErrors(COMMENTS.requesterComments.label, ['size'], true);
  }
  return errors;
}

const COMMENTS = { requesterComments: { label: 'Comments', plural: true } };

/**
 * Server field errors (422, keys `accessControls[i].roleName|siteCodes|laoIds|studyNames|systemAccessIds`,
 * `requesterComments`) as form errors with labels (000 §5): laoIds and siteCodes both show under AO/LAO.
 */
export const serverErrorsToForm = (fieldErrors: FieldErrors) => blockServerErrorsToForm(fieldErrors, COMMENTS);

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
