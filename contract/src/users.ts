/**
 * The Users list's wire contract (000 §2 Users list, §3 User, §7 user_management GET users, §9 page sizes):
 * the query (`inactive` selects the Active or Inactive tab; page, size 10-200, sort over the spec's person
 * and site keys, the OR wildcard `filter`) and one list row (the User fields the list shows).
 */
import { z } from 'zod';
import { queryIntSchema } from './ids';
import { CONSTANTS } from './limits';
import { PageQuerySchema, PersonDetailsSchema, PersonIdentitySchema } from './schemas';
import { textSchema } from './text';

/** The sort keys of GET users (000 §7: the filter's person fields); the default is person.lastName ascending. */
export const USER_SORT_FIELDS = [
  'person.firstName',
  'person.lastName',
  'person.email',
  'person.organizationName',
  'person.phoneNumber',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** The default order of the Users list (000 §9). */
export const USERS_DEFAULT_SORT = 'person.lastName,asc';

const escapeRegex = (s: string) => s.replace(/[.]/g, '\\.');

/**
 * GET /rest/secure/user_management/users query. `inactive` is 'true' or 'false' (default false: the Active
 * tab); `size` lies within the page sizes of 000 §9 (10-200, default 25); `filterType` may only be OR.
 * A bad value is answered 422 with fieldErrors keyed by the parameter.
 */
export const UsersQuerySchema = PageQuerySchema.extend({
  size: queryIntSchema(
    Math.min(...CONSTANTS.tablePageSizes),
    Math.max(...CONSTANTS.tablePageSizes),
    CONSTANTS.usersDefaultPageSize,
  ),
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
});
export type UsersQuery = z.infer<typeof UsersQuerySchema>;

/**
 * One row of the Users list (000 §3 User, as the list shows it): the person, `inactive` (the list derives
 * Active or Inactive from it), and the sites of the user's current access records: `siteCodes` (AO Member
 * ID(s)) and `laoIds` (LAO Affiliation(s), the LAOs' codes, the API's otherIdentifier), each sorted and unique.
 */
export const UserListRowSchema = z.object({
  id: z.number().int(),
  ...PersonIdentitySchema.shape,
  ...PersonDetailsSchema.pick({ organizationName: true, phoneNumber: true, phoneExtension: true }).shape,
  inactive: z.boolean(),
  siteCodes: z.array(z.string()),
  laoIds: z.array(z.string()),
});
export type UserListRow = z.infer<typeof UserListRowSchema>;
