/**
 * The Users list's wire contract (000 §2 Users list, §3 User, §7 user_management GET users, §9 page sizes):
 * the query (`inactive` selects the Active or Inactive tab; page, size 10-200 or the load-all 1,000,000, sort
 * over the spec's person and site keys, the OR wildcard `filter`, the exclusions) and one list row (the User
 * fields the list shows).
 */
import { z } from 'zod';
import { queryIntSchema } from './ids';
import { CONSTANTS } from './limits';
import {
  LOAD_ALL_SIZE,
  PageQuerySchema,
  loadAllOnFirstPage,
  PersonDetailsSchema,
  PersonIdentitySchema,
} from './schemas';
import { textSchema } from './text';

/**
 * The sort keys of GET users (000 §7: the filter's person fields, and its site keys for the list's AO Member
 * ID(s) and LAO Affiliation(s) columns, 000 §2); the default is person.lastName ascending.
 */
export const USER_SORT_FIELDS = [
  'person.firstName',
  'person.lastName',
  'person.email',
  'person.organizationName',
  'person.phoneNumber',
  'sites.siteCode',
  'sites.otherIdentifier',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** The Users list's load failure (000 §8 User access and user management), also the proxy page's user table's. */
export const USERS_LIST_MESSAGES = { loadFailed: 'Problem loading users.' } as const;

/** The default order of the Users list (000 §9). */
export const USERS_DEFAULT_SORT = 'person.lastName,asc';

const escapeRegex = (s: string) => s.replace(/[.]/g, '\\.');

/** The Users list's load-all size: the load-all call of every list (the whole tab, streamed). */
export const USERS_LOAD_ALL_SIZE = LOAD_ALL_SIZE;

/** At most this many names in one exclusion list. */
const MAX_EXCLUDED = 100;

/**
 * An exclusion list of GET users (000 §7 excludeRoles, excludeAssociations, excludeSites): comma-separated
 * names, trimmed, empty entries dropped, each at most `max` characters; 422 'invalid' otherwise.
 */
const exclusionList = (max: number) =>
  textSchema(MAX_EXCLUDED * (max + 1), { trim: false })
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string())
        // Refused as a whole, keyed by the parameter (not by the entry's index).
        .refine((names) => names.length <= MAX_EXCLUDED && names.every((n) => n.length <= max), { message: 'invalid' })
        .transform((names) => [...new Set(names)]),
    )
    .optional();

/**
 * GET /rest/secure/user_management/users query. `inactive` is 'true' or 'false' (default false: the Active
 * tab); `size` lies within the page sizes of 000 §9 (10-200, default 25); `filterType` may only be OR.
 * A bad value is answered 422 with fieldErrors keyed by the parameter.
 */
export const UsersQuerySchema = PageQuerySchema.extend({
  size: queryIntSchema(
    Math.min(...CONSTANTS.tablePageSizes),
    USERS_LOAD_ALL_SIZE,
    CONSTANTS.usersDefaultPageSize,
  ).refine((n) => n <= Math.max(...CONSTANTS.tablePageSizes) || n === USERS_LOAD_ALL_SIZE, { message: 'invalid' }),
  sort: z
    .string()
    .regex(new RegExp(`^(${USER_SORT_FIELDS.map(escapeRegex).join('|')})(,(asc|desc))?$`), { message: 'invalid' })
    .optional(),
  inactive: z.enum(['true', 'false']).default('false'),
  filterType: z.literal('OR').optional(),
  /**
   * The site filter (not in the spec; the proxy page's user table, 001 §2.7): users whose current access
   * records name this AO (`siteCode`) or this LAO (`laoCode`), or, with `unaffiliated=true`, users whose
   * current access records name no site at all. At most one of the three.
   */
  siteCode: textSchema(32, { min: 1, trim: false }).optional(),
  laoCode: textSchema(32, { min: 1, trim: false }).optional(),
  unaffiliated: z.enum(['true', 'false']).optional(),
  /**
   * 000 §7's exclusions (the spec names them only): comma-separated portal role names (`excludeRoles`), study
   * role names of current access records (`excludeAssociations`) and site codes (`excludeSites`: an AO code,
   * or an LAO's site code, which also excludes the holders of that LAO). A user holding any of them is left out.
   */
  excludeRoles: exclusionList(64),
  excludeAssociations: exclusionList(128),
  excludeSites: exclusionList(32),
}).refine(loadAllOnFirstPage, { message: 'invalid', path: ['page'] });
export type UsersQuery = z.infer<typeof UsersQuerySchema>;

/**
 * One row of the Users list (000 §3 User, as the list shows it): the person, `inactive` (the list derives
 * Active or Inactive from it), and the sites of the user's current access records: `siteCodes` (AO Member
 * ID(s)) and `laoIds` (LAO Affiliation(s), the LAOs' codes, the API's otherIdentifier), each sorted and unique,
 * and the first end date of those records (issue 25).
 */
export const UserListRowSchema = z.object({
  id: z.number().int(),
  ...PersonIdentitySchema.shape,
  ...PersonDetailsSchema.pick({ organizationName: true, phoneNumber: true, phoneExtension: true }).shape,
  inactive: z.boolean(),
  siteCodes: z.array(z.string()),
  laoIds: z.array(z.string()),
  /** Issue 25: the earliest end date of the user's current access records ('YYYY-MM-DD'), null when none ends. */
  accessEndDate: z.string().nullable(),
  /** Issue 25: true when one of those records ends within ACCESS_EXPIRY_NOTICE_DAYS (the list marks it). */
  accessEndsSoon: z.boolean(),
});
export type UserListRow = z.infer<typeof UserListRowSchema>;
