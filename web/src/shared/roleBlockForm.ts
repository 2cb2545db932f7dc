import {
  ACCESS_DATE_MESSAGES,
  MESSAGES,
  translateFieldErrors,
  type AccessControl,
  type FieldErrors,
  type StudyRole,
  type System,
} from '@portal/contract';
import { fixedSystemId, type RoleBlockErrors, type RoleBlockValue } from './RoleBlock';

/**
 * The rules of a form made of repeatable role blocks (000 §5, 001 §3 Extended question answer, §5), shared by
 * the access-request form and the registration forms: new blocks, client checks, the blocks on the wire, and
 * the server's 422 field errors placed under their fields. Form paths are `accessControls.{i}.{field}`; the
 * two site selectors share one error path, `accessControls.{i}.sites`.
 */

let blockSeq = 0;
const nextKey = () => `block-${++blockSeq}`;

/** A block with no study role yet; 'Portal Gateway' is always checked. */
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

/** A copy of a block under a new React key (a form filled again from earlier values). */
export function copyBlock(block: RoleBlockValue): RoleBlockValue {
  return { ...block, key: nextKey() };
}

/** 001 §3: a new block's questionNum is one above the highest existing one. */
export function nextQuestionNum(blocks: readonly RoleBlockValue[]): number {
  return Math.max(0, ...blocks.map((b) => b.questionNum)) + 1;
}

/** Labels of the block fields as the server names them (000 §5 '{field label} {reason}'). */
export const BLOCK_LABELS = {
  roleName: 'Study Role',
  siteCodes: 'AOs',
  laoIds: 'LAOs',
  studyNames: 'Studies',
  systemAccessIds: 'Systems',
  accessEndDate: ACCESS_DATE_MESSAGES.label,
} as const;
const PLURAL_BLOCK_FIELDS = new Set(['siteCodes', 'laoIds', 'studyNames', 'systemAccessIds']);

/**
 * Client-side checks of the blocks with the server's rules (001 §5): a study role in every block, each role
 * once, AOs/LAOs when the role has siteRequired, studies when studyRequired, 'Portal Gateway' always.
 */
export function validateBlocks(
  blocks: readonly RoleBlockValue[],
  studyRoles: readonly StudyRole[],
  systems: readonly System[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  const fixed = fixedSystemId(systems);
  const seen = new Set<string>();
  blocks.forEach((block, i) => {
    const path = `accessControls.${i}`;
    const role = studyRoles.find((r) => r.roleName === block.roleName);
    if (!block.roleName || !role) {
      errors[`${path}.roleName`] = translateFieldErrors(BLOCK_LABELS.roleName, ['required']);
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
  return errors;
}

/** A form field the server may name in a 422, with its label and whether the label is plural ('are'). */
export type FieldLabels = Record<string, { label: string; plural?: boolean }>;

/**
 * Server field errors (422) as form errors (000 §5, 001 §5): `prefixes` are stripped ('registrationForm.'),
 * `extendedQuestionAnswers[i]` and `accessControls[i]` both land on block i (laoIds, siteCodes and sites
 * under the one site path), other keys under the form field `fields` names; reasons are translated and joined
 * with '; ', duplicates dropped. Keys the form does not show come back translated in `unmatched`.
 */
export function serverErrorsToForm(
  fieldErrors: FieldErrors,
  fields: FieldLabels,
  prefixes: readonly string[] = [],
): { errors: Record<string, string>; unmatched: string[] } {
  const grouped: Record<string, string[]> = {};
  const unmatched: string[] = [];
  const add = (path: string, texts: string[]) => (grouped[path] ??= []).push(...texts);
  for (const [key, reasons] of Object.entries(fieldErrors)) {
    const bare = prefixes.reduce((k, p) => (k.startsWith(p) ? k.slice(p.length) : k), key);
    const normalized = bare.replace(/^extendedQuestionAnswers/, 'accessControls').replace(/\.sites$/, '.siteCodes');
    const block = /^accessControls\[(\d+)\]\.(\w+)$/.exec(normalized);
    if (block) {
      const [, index, field] = block as unknown as [string, string, keyof typeof BLOCK_LABELS];
      if (field in BLOCK_LABELS) {
        const path = field === 'siteCodes' || field === 'laoIds' ? 'sites' : field;
        const plural = PLURAL_BLOCK_FIELDS.has(field);
        add(
          `accessControls.${index}.${path}`,
          reasons.map((r) => translateFieldErrors(BLOCK_LABELS[field], [r], plural)),
        );
        continue;
      }
    }
    const field = fields[normalized];
    if (field) {
      add(
        normalized,
        reasons.map((r) => translateFieldErrors(field.label, [r], field.plural)),
      );
      continue;
    }
    unmatched.push(...reasons.map((r) => translateFieldErrors(key, [r])));
  }
  const errors = Object.fromEntries(Object.entries(grouped).map(([k, v]) => [k, [...new Set(v)].join('; ')]));
  return { errors, unmatched: [...new Set(unmatched)] };
}

/** How many later blocks' errors move up when a block is removed (001 §5: up to 50 later entries). */
const REINDEX_LOOKAHEAD = 50;

/**
 * The form errors after block `removed` is taken out (001 §5): that block's errors go, and those of the blocks
 * after it move one index up, so the server's messages stay under the block they were about.
 */
export function reindexBlockErrors(errors: Record<string, unknown>, removed: number): Record<string, unknown> {
  const next: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(errors)) {
    const match = /^accessControls\.(\d+)\.(.+)$/.exec(path);
    if (!match) {
      next[path] = error;
      continue;
    }
    const index = Number(match[1]);
    if (index === removed) continue;
    if (index > removed && index <= removed + REINDEX_LOOKAHEAD)
      next[`accessControls.${index - 1}.${match[2]}`] = error;
    else if (index < removed) next[path] = error;
  }
  return next;
}

/** Block i's errors for the RoleBlock widget. */
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
    accessEndDate: get('accessEndDate'),
  };
}

/** A block as it travels on the wire (001 §3: extendedQuestionAnswers in the form, accessControls on the wire). */
export function toAccessControl(block: RoleBlockValue): AccessControl {
  return {
    questionNum: block.questionNum,
    roleName: block.roleName ?? '',
    siteCodes: block.siteCodes,
    laoIds: block.laoIds,
    studyNames: block.studyNames,
    systemAccessIds: block.systemAccessIds.map(Number).filter((n) => Number.isInteger(n) && n > 0),
    // Issue 25: sent only by a block that offers it ('' is none); absent keeps a held end date.
    ...(block.accessEndDate === undefined ? {} : { accessEndDate: block.accessEndDate || null }),
  };
}

/** Study roles other blocks already use: not offered in block `index` (001 §5 'a role used once'). */
export function rolesUsedElsewhere(blocks: readonly RoleBlockValue[], index: number): Set<string> {
  return new Set(blocks.filter((_, i) => i !== index).flatMap((b) => (b.roleName ? [b.roleName] : [])));
}
