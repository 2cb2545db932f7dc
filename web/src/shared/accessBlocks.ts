import {
  AccessControlSchema,
  type AccessControl,
  type FieldErrors,
  type RequestType,
  type System,
  type ReviewAccessChangeBody,
  type UserAccess,
} from '@portal/contract';
import { fixedSystemId, type RoleBlockValue } from './RoleBlock';
import { copyBlock, serverErrorsToForm, toAccessControl } from './roleBlockForm';

/**
 * A user's current access as editable role blocks (000 §2 Access tab; 001 §2.8 review), shared by the admin's
 * Access tab and the access-change review: blocks from the stored records, 'Apply Above Changes' (001 §4),
 * the records on the wire (000 §7 `userAccesses`, each with the id and versionno it was read at, so a record
 * changed meanwhile is refused as stale) and the server's `userAccesses[i]` errors under their blocks.
 */
export interface AccessBlock extends RoleBlockValue {
  /** The stored record the block was read from (null for a new role). */
  recordId: number | null;
  versionno: number | null;
  /** Issue 25: the stored record ends within the notice window. */
  accessEndsSoon?: boolean;
}

const withFixed = (ids: string[], systems: readonly System[]) => {
  const fixed = fixedSystemId(systems);
  return fixed && !ids.includes(fixed) ? [fixed, ...ids] : ids;
};

/** The user's active records as blocks, by study role; questionNum follows their order. */
export function blocksFromRecords(records: readonly UserAccess[], systems: readonly System[]): AccessBlock[] {
  return records
    .filter((r) => !r.inactive)
    .sort((a, b) => a.roleName.localeCompare(b.roleName))
    .map((r, i) => ({
      ...copyBlock({
        key: '',
        questionNum: i + 1,
        roleName: r.roleName,
        siteCodes: [...r.siteCodes],
        laoIds: [...r.laoIds],
        studyNames: [...r.studyNames],
        systemAccessIds: withFixed(r.systemAccessIds.map(String), systems),
        accessEndDate: r.accessEndDate ?? '',
      }),
      recordId: r.id,
      versionno: r.versionno,
      accessEndsSoon: r.accessEndsSoon,
    }));
}

/** A requested block (001 §3 accessControls) as a block of the editor. */
function blockFromRequest(block: AccessControl, questionNum: number, systems: readonly System[]): AccessBlock {
  return {
    ...copyBlock({
      key: '',
      questionNum,
      roleName: block.roleName,
      siteCodes: [...block.siteCodes],
      laoIds: [...block.laoIds],
      studyNames: [...block.studyNames],
      systemAccessIds: withFixed(block.systemAccessIds.map(String), systems),
      // Issue 25: a request that names no end date leaves the block's as it is (see applyRequestedAccess).
      ...(block.accessEndDate === undefined ? {} : { accessEndDate: block.accessEndDate ?? '' }),
    }),
    recordId: null,
    versionno: null,
  };
}

/**
 * 'Apply Above Changes' (001 §4): NEW and CHANGE replace the requested study role's block (keeping the record
 * it edits) or add it; REMOVAL removes that role's block. Nothing is saved until 'Save Changes'.
 */
export function applyRequestedAccess(
  blocks: readonly AccessBlock[],
  request: { requestType: RequestType; accessControls: readonly AccessControl[] },
  systems: readonly System[],
): AccessBlock[] {
  const requested = new Set(request.accessControls.map((b) => b.roleName));
  if (request.requestType === 'REMOVAL') return blocks.filter((b) => !b.roleName || !requested.has(b.roleName));
  let next = [...blocks];
  for (const wanted of request.accessControls) {
    const at = next.findIndex((b) => b.roleName === wanted.roleName);
    const questionNum = at >= 0 ? next[at]!.questionNum : Math.max(0, ...next.map((b) => b.questionNum)) + 1;
    const block = blockFromRequest(wanted, questionNum, systems);
    const keep = (b: AccessBlock): AccessBlock => ({
      ...block,
      accessEndDate: block.accessEndDate ?? b.accessEndDate,
      recordId: b.recordId,
      versionno: b.versionno,
      accessEndsSoon: b.accessEndsSoon,
    });
    if (at >= 0) next = next.map((b, i) => (i === at ? keep(b) : b));
    else next.push(block);
  }
  return next;
}

const sameSet = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x) => b.includes(x));

/** True when the blocks already hold what the request asks (for the finalization warning, 001 §2.8). */
export function requestedAccessApplied(
  blocks: readonly AccessBlock[],
  request: { requestType: RequestType; accessControls: readonly AccessControl[] },
): boolean {
  return request.accessControls.every((wanted) => {
    const block = blocks.find((b) => b.roleName === wanted.roleName);
    if (request.requestType === 'REMOVAL') return !block;
    if (!block) return false;
    const have = toAccessControl(block);
    const ask = AccessControlSchema.parse(wanted);
    return (
      sameSet(have.siteCodes, ask.siteCodes) &&
      sameSet(have.laoIds, ask.laoIds) &&
      sameSet(have.studyNames, ask.studyNames) &&
      ask.systemAccessIds.every((id) => have.systemAccessIds.includes(id)) &&
      (ask.accessEndDate === undefined || (have.accessEndDate ?? null) === ask.accessEndDate)
    );
  });
}

/** The blocks as the records to save (000 §7 userAccesses), each with the record it edits. */
export function toUserAccesses(
  blocks: readonly AccessBlock[],
  portalUserId: number,
): NonNullable<ReviewAccessChangeBody['userAccesses']> {
  return blocks.map((b) => ({
    ...toAccessControl(b),
    portalUserId,
    ...(b.recordId ? { id: b.recordId, versionno: b.versionno ?? undefined } : {}),
  }));
}

/**
 * The server's field errors of a save with `userAccesses` (000 §5, 001 §5): `userAccesses[i].<field>` under
 * block i of the form's `accessControls` list; other keys by `fields`, the rest back in `unmatched`.
 */
export function accessErrorsToForm(
  fieldErrors: FieldErrors,
  fields: Record<string, { label: string; plural?: boolean }> = {},
  prefixes: readonly string[] = [],
) {
  const renamed = Object.fromEntries(
    Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^userAccesses\[/, 'accessControls['), v]),
  );
  return serverErrorsToForm(renamed, fields, prefixes);
}
