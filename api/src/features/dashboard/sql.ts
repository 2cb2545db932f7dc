/**
 * The dashboard's reads as SQL (issue 11 Dashboard, issue 14 hot reads): both read the one queue read model,
 * the "UserRequestQueue" view (every request kind, with its `resolved` flag), through `queryRows` on the
 * API's pg pool, and their rows are parsed with zod.
 *
 * - `queueGroupsSql`: every unresolved request grouped by kind, status and age bracket (time since filing).
 * - `ownRequestsSql`: the rows of the view that belong to one user. The view has no user columns, so each kind
 *   says here which of its rows are the user's: an access-change request they are the subject or the requester
 *   of, a registration they filed for someone else (proxy), their own profile-change request. A new kind adds its clause to OWNERSHIP; until it
 *   does, its rows are simply not listed on the requester's side (the reviewers' side needs nothing).
 */
import { z } from 'zod';
import {
  APPROVER_GROUPS,
  DASHBOARD_DECISIONS,
  QUEUE_AGE_BUCKETS,
  USER_REQUEST_STATUSES,
  USER_REQUEST_TYPES,
} from '@portal/contract';
import { REQUEST_TYPES } from '@portal/contract';
import { Prisma } from '@portal/db';

/** The age bracket of `q.sysdat` against the statement's `now()` (QUEUE_AGE_BUCKETS order). */
const AGE = Prisma.sql`CASE
    WHEN q."sysdat" > (now() AT TIME ZONE 'UTC') - interval '1 day' THEN 'UNDER_1_DAY'
    WHEN q."sysdat" > (now() AT TIME ZONE 'UTC') - interval '3 days' THEN 'DAYS_1_TO_3'
    WHEN q."sysdat" > (now() AT TIME ZONE 'UTC') - interval '7 days' THEN 'DAYS_3_TO_7'
    ELSE 'OVER_7_DAYS' END`;

/** Open requests grouped by kind, status and age (sysdat is UTC, as Prisma writes it). */
export const queueGroupsSql = (): Prisma.Sql => Prisma.sql`
  SELECT q."userRequestType", q."requestStatus", ${AGE} AS "age", count(*)::int AS "count", min(q."sysdat") AS "oldest"
  FROM "UserRequestQueue" q
  WHERE NOT q."resolved"
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3`;

export const QueueGroupRowSchema = z.object({
  userRequestType: z.enum(USER_REQUEST_TYPES),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  age: z.enum(QUEUE_AGE_BUCKETS),
  count: z.number().int(),
  oldest: z.date(),
});

/** Which rows of the view belong to user `me`, per kind (see the module's comment). */
const ownership = (me: number): Prisma.Sql[] => [
  Prisma.sql`(q."userRequestType" = 'ACCESS_CHANGE' AND EXISTS (SELECT 1 FROM "AccessModRequest" r
      WHERE r."id" = q."id" AND (r."subjectUserId" = ${me} OR r."requesterUserId" = ${me})))`,
  Prisma.sql`(q."userRequestType" = 'REGISTRATION' AND EXISTS (SELECT 1 FROM "Registration" g
      WHERE g."id" = q."id" AND g."proxyUserId" = ${me}))`,
  Prisma.sql`(q."userRequestType" = 'PROFILE_CHANGE' AND EXISTS (SELECT 1 FROM "ProfileChangeRequest" p
      WHERE p."id" = q."id" AND p."portalUserId" = ${me}))`,
];

const OWN_COLUMNS = Prisma.sql`q."userRequestType", q."id", q."requestType", q."requestStatus", q."sysdat", q."dchng",
    q."firstName", q."lastName"`;

/**
 * The user's requests: every open one (newest first, at most 50) and the latest DASHBOARD_DECISIONS resolved
 * ones (by their last change), in one statement; `resolved` tells them apart. An open access-change request
 * with an open approval stage (docs/decisions.md "Approval policies") brings it: the stage, the group deciding
 * it and the plan's number of stages, joined by primary key to the (at most 55) rows already chosen, so the
 * statement reads no more of the big tables than the two limited selections.
 */
export const ownRequestsSql = (me: number): Prisma.Sql => {
  const mine = Prisma.join(ownership(me), ' OR ');
  return Prisma.sql`
  SELECT o.*, r."approvalStage", r."approvalGroup"::text AS "approvalGroup",
    jsonb_array_length(r."approvalPlan"->'stages') AS "approvalStages"
  FROM (
    (SELECT ${OWN_COLUMNS}, false AS "resolved" FROM "UserRequestQueue" q
      WHERE NOT q."resolved" AND (${mine}) ORDER BY q."sysdat" DESC, q."id" DESC LIMIT 50)
    UNION ALL
    (SELECT ${OWN_COLUMNS}, true AS "resolved" FROM "UserRequestQueue" q
      WHERE q."resolved" AND (${mine}) ORDER BY q."dchng" DESC, q."id" DESC LIMIT ${DASHBOARD_DECISIONS})
  ) o
  LEFT JOIN "AccessModRequest" r ON o."userRequestType" = 'ACCESS_CHANGE' AND NOT o."resolved"
    AND r."id" = o."id" AND r."approvalStage" IS NOT NULL
  ORDER BY o."resolved", (CASE WHEN o."resolved" THEN o."dchng" ELSE o."sysdat" END) DESC, o."id" DESC`;
};

export const OwnRequestRowSchema = z.object({
  userRequestType: z.enum(USER_REQUEST_TYPES),
  id: z.number().int(),
  requestType: z.enum(REQUEST_TYPES).nullable(),
  requestStatus: z.enum(USER_REQUEST_STATUSES),
  sysdat: z.date(),
  dchng: z.date(),
  firstName: z.string(),
  lastName: z.string(),
  resolved: z.boolean(),
  approvalStage: z.number().int().nullable(),
  approvalGroup: z.enum(APPROVER_GROUPS).nullable(),
  approvalStages: z.number().int().nullable(),
});
