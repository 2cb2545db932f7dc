import { z } from 'zod';
import { REQUEST_STATUSES } from '../statuses';
import { CalendarDaySchema, endDayOf } from '../access-dates';

/**
 * Access-modification request lists and the access-modification report (001 §2.11, §7, §8): the query of
 * GET /rest/secure/user_access_mod_request/report, the report's columns, and the texts both sides show.
 * The spec leaves the report's permission, columns and the meaning of proxyRequests open; what is built is
 * recorded in docs/decisions.md ("Own access requests and the report").
 */

/** The `{status}` of GET /rest/secure/user_access_mod_request/status/{status} (001 §4 Request statuses). */
export const AccessModStatusParamsSchema = z.object({ status: z.enum(REQUEST_STATUSES) });

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 is `invalid`). */
const DaySchema = CalendarDaySchema;

/**
 * The report's query (001 §7): optional startDate and endDate (days, inclusive, UTC, on the date submitted) and
 * proxyRequests (`true` proxy-filed only, `false` self-filed only, absent all). A start after the end is refused
 * on both fields with the spec's reasons (000 §5 afterEndDate / beforeStartDate).
 */
export const AccessReportQuerySchema = z
  .object({
    startDate: DaySchema.optional(),
    endDate: DaySchema.optional(),
    proxyRequests: z.enum(['true', 'false']).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.startDate && q.endDate && q.startDate > q.endDate) {
      ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'afterEndDate', input: q.startDate });
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'beforeStartDate', input: q.endDate });
    }
  });
export type AccessReportQuery = z.infer<typeof AccessReportQuerySchema>;

/** The report's file name: `access-modification-requests_<start or 'all'>_<end or 'all'>[_proxy|_self].csv`. */
export function accessReportFileName(q: AccessReportQuery): string {
  const who = q.proxyRequests === 'true' ? '_proxy' : q.proxyRequests === 'false' ? '_self' : '';
  return `access-modification-requests_${q.startDate ?? 'all'}_${q.endDate ?? 'all'}${who}.csv`;
}

/**
 * The report's columns, in order (one row per request). Role blocks go to the five access columns, one entry
 * per block joined with ' | ' in block order so the columns line up; within a block, values joined with '; '.
 */
export const ACCESS_REPORT_COLUMNS = [
  'Request ID',
  'Date Submitted',
  'Request Type',
  'Request Status',
  'User ID',
  'User Name',
  'User Email',
  'Submitted By',
  'Proxy User ID',
  'Proxy Email',
  'Study Role(s)',
  'LAOs',
  'AOs',
  'Study(s)',
  'Systems',
  'Requester Comments',
  'Reviewer Comments',
  'External Ticket #',
  'Date Modified',
  'Last Modified By',
] as const;

/** 001 §8 texts of the lists and the report, word for word; `{...}` parts filled in. */
export const ACCESS_REQUEST_MESSAGES = {
  loadStatusFailed: (status: string) => `Problem loading "${status}" user-access modification request(s).`,
  reportFailed: 'Unable to generate report due to one or more errors.',
  reportForbidden: (email: string) =>
    `Sorry, you don't have permission to run this report. Please contact User Support (${email}) if you feel this is in error.`,
} as const;

/** The parts of an access record or role block that a request can change (000 §3 User access record). */
export interface AccessParts {
  roleName: string | null;
  siteCodes: readonly string[];
  laoIds: readonly string[];
  studyNames: readonly string[];
  systemAccessIds: readonly number[];
  /** Issue 25: a held record's end date (a stored `date` or a day), or a block's (absent: the held one stays). */
  accessEndDate?: Date | string | null;
}

const sameSet = <T>(a: readonly T[], b: readonly T[]): boolean => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((v) => right.has(v));
};

/**
 * True when `block` asks for exactly the access `held` grants (order and duplicates ignored; an end date
 * counts, one the block does not send stays as held, issue 25): a CHANGE that
 * changes nothing, which the server answers 304 'There are no changes to submit.' when it carries no comments
 * (001 §5, §7).
 */
export function sameAccess(held: AccessParts, block: AccessParts): boolean {
  return (
    held.roleName === block.roleName &&
    sameSet(held.siteCodes, block.siteCodes) &&
    sameSet(held.laoIds, block.laoIds) &&
    sameSet(held.studyNames, block.studyNames) &&
    sameSet(held.systemAccessIds, block.systemAccessIds) &&
    (block.accessEndDate === undefined || endDayOf(held.accessEndDate) === endDayOf(block.accessEndDate))
  );
}

/** The parts of a 000 §3 LAO-site-study relation the filtering reads (GET /rest/public/site_relation). */
export interface RelationLike {
  active: boolean;
  lao: { laoCode: string };
  site: { siteCode: string };
  study: { study: string };
}

/** Active relations indexed both ways, built once per relation list. */
export interface RelationIndex {
  studiesByLao: ReadonlyMap<string, ReadonlySet<string>>;
  studiesBySite: ReadonlyMap<string, ReadonlySet<string>>;
  laosByStudy: ReadonlyMap<string, ReadonlySet<string>>;
  sitesByStudy: ReadonlyMap<string, ReadonlySet<string>>;
}

export function relationIndex(relations: readonly RelationLike[]): RelationIndex {
  const add = (map: Map<string, Set<string>>, key: string, value: string) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(value);
  };
  const index = {
    studiesByLao: new Map<string, Set<string>>(),
    studiesBySite: new Map<string, Set<string>>(),
    laosByStudy: new Map<string, Set<string>>(),
    sitesByStudy: new Map<string, Set<string>>(),
  };
  for (const r of relations) {
    if (!r.active) continue;
    add(index.studiesByLao, r.lao.laoCode, r.study.study);
    add(index.studiesBySite, r.site.siteCode, r.study.study);
    add(index.laosByStudy, r.study.study, r.lao.laoCode);
    add(index.sitesByStudy, r.study.study, r.site.siteCode);
  }
  return index;
}

const union = (keys: readonly string[], map: ReadonlyMap<string, ReadonlySet<string>>): Set<string> =>
  new Set(keys.flatMap((k) => [...(map.get(k) ?? [])]));

/**
 * LAO-site-study filtering, sites to studies (000 §5): the studies related to any chosen LAO (through any of its
 * sites) or any chosen AO; null (no limit) while no AO or LAO is chosen.
 */
export function studiesForSites(
  index: RelationIndex,
  chosen: { laoIds: readonly string[]; siteCodes: readonly string[] },
): Set<string> | null {
  if (chosen.laoIds.length + chosen.siteCodes.length === 0) return null;
  return new Set([...union(chosen.laoIds, index.studiesByLao), ...union(chosen.siteCodes, index.studiesBySite)]);
}

/**
 * LAO-site-study filtering, studies to sites (000 §5): the LAOs and AOs related to any chosen study; null (no
 * limit) while no study is chosen.
 */
export function sitesForStudies(
  index: RelationIndex,
  studyNames: readonly string[],
): { laoIds: Set<string>; siteCodes: Set<string> } | null {
  if (studyNames.length === 0) return null;
  return { laoIds: union(studyNames, index.laosByStudy), siteCodes: union(studyNames, index.sitesByStudy) };
}
