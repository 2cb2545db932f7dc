-- Profile-change requests (spec 001 section 3, Profile-change request): the read projection of the workflow
-- profile-change-ID, one row per request, with the requested name and email beside the values when it was filed.
CREATE TABLE "ProfileChangeRequest" (
    "id" SERIAL NOT NULL,
    "workflowId" VARCHAR(64) NOT NULL,
    "requestStatus" "RequestStatus" NOT NULL DEFAULT 'NEW',
    "portalUserId" INTEGER NOT NULL,
    "firstName" VARCHAR(45) NOT NULL,
    "lastName" VARCHAR(45) NOT NULL,
    "email" VARCHAR(256) NOT NULL,
    "originalFirstName" VARCHAR(45) NOT NULL,
    "originalLastName" VARCHAR(45) NOT NULL,
    "originalEmail" VARCHAR(256) NOT NULL,
    "requesterComments" VARCHAR(512) NOT NULL DEFAULT '',
    "reviewerComments" VARCHAR(512) NOT NULL DEFAULT '',
    "sysaidTicket" VARCHAR(16) NOT NULL DEFAULT '',
    "versionno" INTEGER NOT NULL DEFAULT 0,
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastModifiedBy" VARCHAR(64) NOT NULL,
    "workflowStartedAt" TIMESTAMP(3),

    CONSTRAINT "ProfileChangeRequest_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ProfileChangeRequest_workflowId_key" ON "ProfileChangeRequest"("workflowId");
CREATE INDEX "ProfileChangeRequest_requestStatus_sysdat_idx" ON "ProfileChangeRequest"("requestStatus", "sysdat");
CREATE INDEX "ProfileChangeRequest_portalUserId_idx" ON "ProfileChangeRequest"("portalUserId");
CREATE INDEX "ProfileChangeRequest_workflowStartedAt_idx" ON "ProfileChangeRequest"("workflowStartedAt");

ALTER TABLE "ProfileChangeRequest" ADD CONSTRAINT "ProfileChangeRequest_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The User Requests queue read model gains the profile-change requests (REQUEST-LIFECYCLE.md, one read model
-- across kinds): the view of 20261124000000_user_request_queue, recreated with a third SELECT. The row shows the
-- user as the portal knows them now (as for access changes), the request type is empty.
DROP VIEW "UserRequestQueue";
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
WHERE g."registrationStatus"::text <> 'DELETED'
UNION ALL
SELECT
  'PROFILE_CHANGE'::text,
  p."id",
  NULL::text,
  p."requestStatus"::text,
  p."requestStatus"::text IN ('APPROVED', 'REJECTED'),
  p."sysdat",
  p."sysaidTicket",
  p."dchng",
  p."lastModifiedBy",
  pu."firstName",
  pu."lastName",
  pu."email",
  pu."organizationName"
FROM "ProfileChangeRequest" p
JOIN "PortalUser" pu ON pu."id" = p."portalUserId";
