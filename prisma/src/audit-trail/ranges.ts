/**
 * Id ranges of the audit seals: ids are bigint, handled as BigInt and written as decimal strings (JSON has no
 * bigint). Ranges are inclusive, ascending and disjoint.
 */
import type { IdRanges, PendingGaps } from './canonical';

/** Ascending ids as the fewest ranges. */
export function toRanges(ids: bigint[]): IdRanges {
  const out: IdRanges = [];
  let from: bigint | undefined;
  let to: bigint | undefined;
  for (const id of ids) {
    if (to !== undefined && id === to + 1n) to = id;
    else {
      if (from !== undefined) out.push([String(from), String(to)]);
      from = id;
      to = id;
    }
  }
  if (from !== undefined) out.push([String(from), String(to)]);
  return out;
}

/**
 * The ids of (`after`, `upTo`] missing from the ascending `ids` (each above `after`), as ranges: the gaps a
 * seal leaves for transactions still in flight.
 */
export function gapsBetween(after: bigint, upTo: bigint, ids: bigint[]): [bigint, bigint][] {
  const gaps: [bigint, bigint][] = [];
  let next = after + 1n;
  for (const id of ids) {
    if (id <= after) continue;
    if (id > next) gaps.push([next, id - 1n]);
    next = id + 1n;
  }
  if (next <= upTo) gaps.push([next, upTo]);
  return gaps;
}

/** `gaps` less the ascending `ids`, keeping each gap's first-seen time. */
export function subtractIds(gaps: PendingGaps, ids: bigint[]): PendingGaps {
  const out: PendingGaps = [];
  for (const [fromText, toText, seen] of gaps) {
    let from = BigInt(fromText);
    const to = BigInt(toText);
    for (const id of ids) {
      if (id < from || id > to) continue;
      if (id > from) out.push([String(from), String(id - 1n), seen]);
      from = id + 1n;
    }
    if (from <= to) out.push([String(from), String(to), seen]);
  }
  return out;
}
