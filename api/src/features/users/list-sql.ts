/**
 * The Users list as SQL (000 §7 GET users; issue 11 Speed): the page and the count of one tab (inactive
 * false or true), built as `Prisma.sql` fragments (values always bound, sort columns only from the whitelist
 * below). The OR filter is a case-insensitive "contains" over person.firstName, lastName, email,
 * organizationName and phoneNumber (one trigram GIN index over them) and the user's current sites:
 * sites.siteCode (AO Member IDs) and sites.otherIdentifier (LAO codes), matched in the Site table and then
 * through the GIN indexes of the current access records' arrays (prisma/migrations/2026112500*_users_list_*).
 * Rows are parsed with zod. `tests/bench/users-list.ts` runs the same statements on PostgreSQL directly.
 */
import type { UserSortField } from '@portal/contract';
import { Prisma, accessDateSettings } from '@portal/db';
import { CountRowsSchema, containsPattern } from '../../shared/sql';
import { type OrderKey, deepPageWindow, limitOffset, orderByText } from '../../shared/deep-page';
import type { WalkablePageSql } from '../../shared/filtered-page';
import { type RowJson, rowSql, valueJson } from '../../shared/row-json';

/**
 * The sorted, unique values of one array column over the current access records of the user `u` (what the
 * list's site columns show), as an expression.
 */
const currentSiteArray = (column: 'siteCodes' | 'laoIds') =>
  `ARRAY(SELECT DISTINCT c FROM "UserAccess" a CROSS JOIN unnest(a."${column}") c
      WHERE a."portalUserId" = u."id" AND NOT a."inactive" ORDER BY c)`;

/**
 * The sort keys of 000 §7 and their columns of "PortalUser" `u`, each with an (inactive, column, id) index. A
 * site key is the user's sorted codes (`currentSiteArray`, kept on the person row by triggers on the access
 * records: migration 20261211500000_every_order_indexes), compared code by code as PostgreSQL compares arrays:
 * a user without any sorts first ascending.
 */
const SORT_COLUMNS: Record<UserSortField, string> = {
  'person.firstName': 'u."firstName"',
  'person.lastName': 'u."lastName"',
  'person.email': 'u."email"',
  'person.organizationName': 'u."organizationName"',
  'person.phoneNumber': 'u."phoneNumber"',
  'sites.siteCode': 'u."siteCodesKey"',
  'sites.otherIdentifier': 'u."laoIdsKey"',
};

/** The count statement's answer. */
export const UserListCountSchema = CountRowsSchema;

/**
 * The person fields the wildcard searches, lower-cased and joined by line breaks: the stored column
 * "searchText" (first and last name, email, phone: prisma/migrations/20261210100000_users_organization_counts),
 * served by its trigram index (the alias `p` is the person row). A filter is one line, so a match stays inside
 * one field (the spec's OR). The organisation is matched on its own (its trigram index), since its users are
 * counted per organisation.
 */
const SEARCH_TEXT = Prisma.raw(`p."searchText"`);
const ORGANIZATION = Prisma.raw(`lower(p."organizationName"::text)`);

/**
 * The users of one tab matching `filter`, as a relation `u`: without a filter the tab itself (its page comes
 * from the (inactive, sort column, id) indexes); with one, the UNION of the users whose person fields match
 * (the trigram indexes) and those whose current access records name a matching site code or LAO code. The
 * UNION of two small selections keeps PostgreSQL from scanning the whole tab to join a list of ids.
 * `otherOrganizations`: only the matching users whose organisation does not match (what the kept counts per
 * organisation leave to count).
 */
function matchingUsers(
  inactive: boolean,
  filter: string | undefined,
  site: SiteFilter = {},
  otherOrganizations = false,
): Prisma.Sql {
  if (site.siteCode || site.laoCode || site.unaffiliated) return siteUsers(inactive, filter, site);
  if (!filter) return Prisma.sql`(SELECT * FROM "PortalUser" p WHERE p."inactive" = ${inactive}) u`;
  const lower = containsPattern(filter.toLowerCase());
  const [person, others] = otherOrganizations
    ? [
        Prisma.sql`${SEARCH_TEXT} LIKE ${lower} AND NOT ${ORGANIZATION} LIKE ${lower}`,
        Prisma.sql`AND NOT ${ORGANIZATION} LIKE ${lower}`,
      ]
    : [Prisma.sql`(${SEARCH_TEXT} LIKE ${lower} OR ${ORGANIZATION} LIKE ${lower})`, Prisma.empty];
  return Prisma.sql`(SELECT p.* FROM "PortalUser" p WHERE p."inactive" = ${inactive} AND ${person}
    UNION
    SELECT p.* FROM "PortalUser" p
      WHERE p."inactive" = ${inactive} ${others} AND p."id" IN (${siteHolders(filter)})) u`;
}

/**
 * The users whose current access records name a site code or LAO code containing `filter` (case-insensitive),
 * through the Site table and the GIN indexes of the records' arrays.
 */
function siteHolders(filter: string): Prisma.Sql {
  const like = containsPattern(filter);
  return Prisma.sql`SELECT a."portalUserId" FROM "UserAccess" a WHERE NOT a."inactive" AND (
    a."siteCodes" && ARRAY(SELECT s."siteCode"::text FROM "Site" s WHERE s."siteCode" ILIKE ${like})
    OR a."laoIds" && ARRAY(SELECT s."laoCode"::text FROM "Site" s WHERE s."laoCode" ILIKE ${like}))`;
}

/**
 * The person row `p` matches `filter`: its own fields, its organisation, or a current access record naming a
 * matching site code or LAO code (checked per row, against the few matching sites' holders).
 */
function personMatches(filter: string): Prisma.Sql {
  const lower = containsPattern(filter.toLowerCase());
  return Prisma.sql`(${SEARCH_TEXT} LIKE ${lower} OR ${ORGANIZATION} LIKE ${lower}
    OR p."id" IN (${siteHolders(filter)}))`;
}

/** The site filter of GET users (contract/src/users.ts; the proxy page, 001 §2.7). */
export interface SiteFilter {
  siteCode?: string;
  laoCode?: string;
  /** Users whose current access records name no AO and no LAO. */
  unaffiliated?: boolean;
}

/**
 * The users of one tab at one AO or LAO (an LAO: also its AOs, through the LAO-site-study relations), or
 * those without any site, optionally narrowed by the person-field wildcard, as a relation `u`. The access
 * records' arrays are matched through their GIN indexes.
 */
function siteUsers(inactive: boolean, filter: string | undefined, site: SiteFilter): Prisma.Sql {
  const sited = Prisma.sql`SELECT a."portalUserId" FROM "UserAccess" a WHERE NOT a."inactive"`;
  const where = site.unaffiliated
    ? Prisma.sql`p."id" NOT IN (${sited} AND (cardinality(a."siteCodes") > 0 OR cardinality(a."laoIds") > 0))`
    : site.siteCode
      ? Prisma.sql`p."id" IN (${sited} AND a."siteCodes" && ARRAY[${site.siteCode}]::text[])`
      : // An LAO's users: those at the LAO, at its own AO duplicate, or at one of its AOs (000 §3).
        Prisma.sql`p."id" IN (${sited} AND (a."laoIds" && ARRAY[${site.laoCode ?? ''}]::text[]
          OR a."siteCodes" && ARRAY(SELECT r."siteCode"::text FROM "SiteRelation" r
            WHERE r."laoCode" = ${site.laoCode ?? ''} AND r."active" UNION SELECT ${site.laoCode ?? ''}::text)))`;
  const lower = filter ? containsPattern(filter.toLowerCase()) : '';
  const text = filter ? Prisma.sql`AND (${SEARCH_TEXT} LIKE ${lower} OR ${ORGANIZATION} LIKE ${lower})` : Prisma.empty;
  return Prisma.sql`(SELECT p.* FROM "PortalUser" p WHERE p."inactive" = ${inactive} AND ${where} ${text}) u`;
}

/** 000 §7's exclusions of GET users, as parsed by the contract (names; empty or absent: none). */
export interface Exclusions {
  /** Portal role names (`PortalRole.description`) the user holds. */
  excludeRoles?: readonly string[];
  /** Study role names of the user's current access records. */
  excludeAssociations?: readonly string[];
  /** Site codes: an AO in a current record's siteCodes, or an LAO (by its site code) in its laoIds. */
  excludeSites?: readonly string[];
}

/**
 * `users` (a relation `u`) without the users holding any excluded portal role, study role or site, as a
 * relation `u`; unchanged without exclusions. Each test is an EXISTS on an index (the user's roles by
 * user, the current records by user).
 */
function withoutExcluded(users: Prisma.Sql, ex: Exclusions): Prisma.Sql {
  const tests: Prisma.Sql[] = [];
  if (ex.excludeRoles?.length) {
    tests.push(Prisma.sql`EXISTS (SELECT 1 FROM "PortalUserRole" ur JOIN "PortalRole" pr ON pr."id" = ur."portalRoleId"
      WHERE ur."portalUserId" = u."id" AND pr."description" = ANY(${[...ex.excludeRoles]}::text[]))`);
  }
  const current = Prisma.sql`SELECT 1 FROM "UserAccess" a WHERE a."portalUserId" = u."id" AND NOT a."inactive"`;
  if (ex.excludeAssociations?.length) {
    tests.push(Prisma.sql`EXISTS (${current} AND a."roleName" = ANY(${[...ex.excludeAssociations]}::text[]))`);
  }
  if (ex.excludeSites?.length) {
    const codes = [...ex.excludeSites];
    tests.push(Prisma.sql`EXISTS (${current} AND (a."siteCodes" && ${codes}::text[]
      OR a."laoIds" && ARRAY(SELECT s."laoCode"::text FROM "Site" s
        WHERE s."siteCode" = ANY(${codes}::text[]) AND s."laoCode" IS NOT NULL)))`);
  }
  if (!tests.length) return users;
  return Prisma.sql`(SELECT * FROM ${users} WHERE NOT (${Prisma.join(tests, ' OR ')})) u`;
}

/** A user's sites of one column, as the row's field of that name. */
const currentSites = (column: 'siteCodes' | 'laoIds') => Prisma.raw(`${currentSiteArray(column)} AS "${column}"`);

/**
 * The earliest end date of a user's current access records and whether one ends within the notice window,
 * today taken in NETWORK_TIME_ZONE (issue 25); on the (portalUserId, inactive) index like the sites.
 */
function currentEnd(): Prisma.Sql {
  const { NETWORK_TIME_ZONE, ACCESS_EXPIRY_NOTICE_DAYS } = accessDateSettings();
  const today = Prisma.sql`(now() AT TIME ZONE ${NETWORK_TIME_ZONE})::date`;
  const current = Prisma.sql`FROM "UserAccess" a WHERE a."portalUserId" = u."id" AND NOT a."inactive"`;
  return Prisma.sql`(SELECT to_char(min(a."accessEndDate"), 'YYYY-MM-DD') ${current}) AS "accessEndDate",
      EXISTS (SELECT 1 ${current} AND a."accessEndDate" >= ${today}
        AND a."accessEndDate" <= ${today} + ${ACCESS_EXPIRY_NOTICE_DAYS}::int) AS "accessEndsSoon"`;
}

/** The sorts an (inactive, column, id) index serves (20261125000000_users_list_indexes): a filtered page may walk them. */
const INDEXED_SORTS = new Set<UserSortField>(['person.firstName', 'person.lastName', 'person.email']);

/**
 * The statements of one list page: `rows` (the page sorted by `field` `dir`, then by id, with the sites of
 * the page's users only) and `count` (every matching user of the tab, less the excluded). With a filter alone
 * and an indexed sort, also `walk`: the page read from the first rows of the tab's index for that sort
 * (shared/filtered-page.ts; the count then also answers `tableRows`, the tab's size).
 */
export function usersListSql(
  inactive: boolean,
  q: { page: number; size: number; filter?: string } & Exclusions,
  field: UserSortField,
  dir: 'asc' | 'desc',
  site: SiteFilter = {},
  total?: number,
): WalkablePageSql {
  const keys: OrderKey[] = [
    { column: SORT_COLUMNS[field], dir },
    { column: 'u."id"', dir },
  ];
  const order = Prisma.raw(orderByText(keys));
  // Past the middle, the page is read from the end (issue 24: the last of a million users as fast as the first).
  const window = deepPageWindow(q.page, q.size, total);
  const windowOrder = Prisma.raw(orderByText(keys, window.reversed));
  const tab = matchingUsers(inactive, q.filter, site);
  const users = withoutExcluded(tab, q);
  const page = (relation: Prisma.Sql) => Prisma.sql`SELECT u."id", u."uuid", u."username", u."firstName",
      u."lastName", u."email", u."organizationName", u."phoneNumber", u."phoneExtension", u."inactive",
      ${currentSites('siteCodes')}, ${currentSites('laoIds')}, ${currentEnd()}
    FROM (SELECT * FROM ${relation} ORDER BY ${windowOrder} ${limitOffset(window)}) u
    ORDER BY ${order}`;
  const sited = Boolean(site.siteCode || site.laoCode || site.unaffiliated);
  const filterAlone = users === tab && !sited && q.filter ? q.filter : undefined;
  const walk =
    filterAlone && INDEXED_SORTS.has(field)
      ? (walked: number) =>
          page(Prisma.sql`(SELECT p.* FROM (SELECT * FROM "PortalUser" u WHERE u."inactive" = ${inactive}
            ORDER BY ${windowOrder} LIMIT ${walked}) p WHERE ${personMatches(filterAlone)}) u`)
      : undefined;
  return { rows: page(users), count: countSql(inactive, q.filter, sited, users, users === tab), window, walk };
}

/**
 * The count of one list page: a whole tab's size (no filter, site or exclusion) is kept by triggers (migration
 * 20261202000000_growth_read_models); a filter alone is the kept counts of the tab's organisations that contain
 * it plus the matching users of the other organisations (20261210100000_users_organization_counts), two parts
 * that exclude one another, beside the tab's size (`tableRows`); anything else (`users`, the page's relation)
 * is counted row by row.
 */
function countSql(
  inactive: boolean,
  filter: string | undefined,
  sited: boolean,
  users: Prisma.Sql,
  unexcluded: boolean,
): Prisma.Sql {
  const tabSize = Prisma.sql`SELECT coalesce(sum(c."n"), 0)::int FROM "PortalUserCount" c WHERE c."inactive" = ${inactive}`;
  if (unexcluded && !sited && !filter) return Prisma.sql`SELECT (${tabSize}) AS total`;
  if (unexcluded && !sited && filter) {
    return Prisma.sql`SELECT ((SELECT coalesce(sum(c."n"), 0) FROM "PortalUserOrganizationCount" c
        WHERE c."inactive" = ${inactive} AND c."organization" LIKE ${containsPattern(filter.toLowerCase())})
      + (SELECT count(*) FROM ${matchingUsers(inactive, filter, {}, true)}))::int AS total, (${tabSize}) AS "tableRows"`;
  }
  return Prisma.sql`SELECT count(*)::int AS total FROM ${users}`;
}

/**
 * The Users list's wire row (UserListRowSchema, in its key order) as PostgreSQL writes it for the load-all
 * stream (000 §9; shared/stream-page.ts), over the columns of `usersListSql`'s rows, which are the row's own.
 */
export const usersRowJson: RowJson = {
  sql: rowSql(
    (
      [
        'id',
        'uuid',
        'username',
        'firstName',
        'lastName',
        'email',
        'organizationName',
        'phoneNumber',
        'phoneExtension',
        'inactive',
        'siteCodes',
        'laoIds',
        'accessEndDate',
        'accessEndsSoon',
      ] as const
    ).map((k) => [k, valueJson(`t."${k}"`)] as const),
  ),
  finish: (row) => row,
};
