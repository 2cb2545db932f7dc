-- The one read model of the User Requests queue across request kinds (REQUEST-LIFECYCLE.md, The shape, spec 000
-- section 3, User request): the commit of each kind writes its own table, this view unions them so the queue
-- pages, sorts and filters with SQL. A row is keyed by (userRequestType, id). Deleted registrations are not listed.
CREATE VIEW "UserRequestQueue" AS
SELECT
  'ACCESS_CHANGE'::text AS "userRequestType",
  r."id",
  r."requestType"::text AS "requestType",
  r."requestStatus"::text AS "requestStatus",
  r."requestStatus"::text IN ('APPROVED', 'REJECTED') AS "resolved",
  r."sysdat",
  r."sysaidTicket",
  r."dchng",
  r."lastModifiedBy",
  u."firstName",
  u."lastName",
  u."email",
  u."organizationName"
FROM "AccessModRequest" r
JOIN "PortalUser" u ON u."id" = r."subjectUserId"
UNION ALL
SELECT
  'REGISTRATION'::text,
  g."id",
  NULL::text,
  g."registrationStatus"::text,
  g."registrationStatus"::text <> 'PENDING',
  g."sysdat",
  g."sysaidTicket",
  g."dchng",
  g."lastModifiedBy",
  g."firstName",
  g."lastName",
  g."email",
  g."organizationName"
FROM "Registration" g
WHERE g."registrationStatus"::text <> 'DELETED';
