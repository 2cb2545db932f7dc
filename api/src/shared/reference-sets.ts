/**
 * The reference sets a filing's role blocks are checked against (000 §5 Role block, 001 §5 "Server-side"),
 * kept in memory beside the reference lists (reference-cache.ts `value`) and dropped with them on every
 * `reference_changed` notification, so the hot filing path reads no reference table (issue 24 "Filing a
 * request"). A block the kept sets refuse is checked again against sets read now: a study role, site or system
 * made a moment ago on another process (its notification still on the way) is never refused. Today's bounds
 * of an end date are taken at each check, not kept.
 */
import type { AccessControl, FieldErrors } from '@portal/contract';
import { type ReferenceSets, accessEndDateBounds, checkAccessControls, loadReferenceSets } from '@portal/db';
import type { Deps } from '../deps';
import { referenceCacheFor } from './reference-cache';

const KEY = 'filing:referenceSets';

/**
 * The field errors of `blocks` against the active reference data (`checkAccessControls`, keys
 * `accessControls[i].<field>`); empty when every rule holds. @throws when the database fails.
 */
export async function accessControlErrors(
  deps: Pick<Deps, 'prisma'>,
  blocks: readonly AccessControl[],
): Promise<FieldErrors> {
  const { value, cached } = await referenceCacheFor(deps.prisma).value<ReferenceSets>(KEY, () =>
    loadReferenceSets(deps.prisma),
  );
  const errors = checkAccessControls(blocks, { ...value, endDates: accessEndDateBounds() });
  if (!cached || Object.keys(errors).length === 0) return errors;
  return checkAccessControls(blocks, await loadReferenceSets(deps.prisma));
}
