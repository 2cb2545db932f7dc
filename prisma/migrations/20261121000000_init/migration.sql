-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Permission" AS ENUM ('ADMIN', 'WRITE_USERS', 'READ_USERS', 'USER', 'SET_OWN_PASSWORD');

-- CreateEnum
CREATE TYPE "SiteType" AS ENUM ('AO', 'LAO');

-- CreateEnum
CREATE TYPE "RequestType" AS ENUM ('NEW', 'CHANGE', 'REMOVAL');

-- CreateEnum
CREATE TYPE "RequestStatus" AS ENUM ('NEW', 'IN_PROGRESS', 'PENDING_REVIEW', 'PENDING_OUTSIDE_ACTION', 'APPROVED', 'REJECTED');

-- CreateTable
CREATE TABLE "PortalUser" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT,
    "username" VARCHAR(64) NOT NULL,
    "firstName" VARCHAR(45) NOT NULL,
    "lastName" VARCHAR(45) NOT NULL,
    "email" VARCHAR(256) NOT NULL,
    "gecos" VARCHAR(91) NOT NULL DEFAULT '',
    "accountType" VARCHAR(32) NOT NULL DEFAULT 'external',
    "organizationName" VARCHAR(64) NOT NULL DEFAULT '',
    "jobTitle" VARCHAR(45) NOT NULL DEFAULT '',
    "phoneNumber" VARCHAR(15) NOT NULL DEFAULT '',
    "phoneExtension" VARCHAR(5) NOT NULL DEFAULT '',
    "address1" VARCHAR(255) NOT NULL DEFAULT '',
    "address2" VARCHAR(255) NOT NULL DEFAULT '',
    "city" VARCHAR(255) NOT NULL DEFAULT '',
    "state" VARCHAR(8),
    "country" VARCHAR(2),
    "postalCode" VARCHAR(20) NOT NULL DEFAULT '',
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PortalUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PortalRole" (
    "id" SERIAL NOT NULL,
    "description" VARCHAR(64) NOT NULL,
    "permissions" "Permission"[],
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PortalRole_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PortalUserRole" (
    "portalUserId" INTEGER NOT NULL,
    "portalRoleId" INTEGER NOT NULL,

    CONSTRAINT "PortalUserRole_pkey" PRIMARY KEY ("portalUserId","portalRoleId")
);

-- CreateTable
CREATE TABLE "StudyRole" (
    "id" SERIAL NOT NULL,
    "roleName" VARCHAR(128) NOT NULL,
    "description" VARCHAR(1024) NOT NULL,
    "siteRequired" BOOLEAN NOT NULL DEFAULT false,
    "studyRequired" BOOLEAN NOT NULL DEFAULT false,
    "allowAOs" BOOLEAN NOT NULL DEFAULT true,
    "allowLAOs" BOOLEAN NOT NULL DEFAULT true,
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "StudyRole_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StudyRoleSystem" (
    "studyRoleId" INTEGER NOT NULL,
    "systemId" INTEGER NOT NULL,

    CONSTRAINT "StudyRoleSystem_pkey" PRIMARY KEY ("studyRoleId","systemId")
);

-- CreateTable
CREATE TABLE "SystemAccess" (
    "id" SERIAL NOT NULL,
    "systemName" VARCHAR(128) NOT NULL,
    "description" VARCHAR(1024) NOT NULL DEFAULT '',
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "fixed" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "SystemAccess_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Site" (
    "id" SERIAL NOT NULL,
    "siteCode" VARCHAR(32) NOT NULL,
    "siteName" VARCHAR(255) NOT NULL,
    "siteStatus" VARCHAR(16) NOT NULL DEFAULT 'ACTIVE',
    "siteType" "SiteType" NOT NULL,
    "description" VARCHAR(1024),
    "laoCode" VARCHAR(32),

    CONSTRAINT "Site_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Study" (
    "id" SERIAL NOT NULL,
    "study" VARCHAR(128) NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "Study_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteRelation" (
    "id" SERIAL NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "laoCode" VARCHAR(32) NOT NULL,
    "siteCode" VARCHAR(32) NOT NULL,
    "studyName" VARCHAR(128) NOT NULL,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteRelation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Country" (
    "country" VARCHAR(2) NOT NULL,
    "countryName" VARCHAR(128) NOT NULL,

    CONSTRAINT "Country_pkey" PRIMARY KEY ("country")
);

-- CreateTable
CREATE TABLE "State" (
    "country" VARCHAR(2) NOT NULL,
    "state" VARCHAR(8) NOT NULL,
    "stateName" VARCHAR(128) NOT NULL,

    CONSTRAINT "State_pkey" PRIMARY KEY ("country","state")
);

-- CreateTable
CREATE TABLE "UserAccess" (
    "id" SERIAL NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "roleName" VARCHAR(128) NOT NULL,
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "siteCodes" TEXT[],
    "laoIds" TEXT[],
    "studyNames" TEXT[],
    "systemAccessIds" INTEGER[],
    "versionno" INTEGER NOT NULL DEFAULT 1,
    "priorAccessControlId" INTEGER,
    "originalRevisionNumber" INTEGER,
    "sourceRequestId" INTEGER,
    "createdBy" VARCHAR(64) NOT NULL,
    "lastModifiedBy" VARCHAR(64) NOT NULL,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserAccess_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AccessModRequest" (
    "id" SERIAL NOT NULL,
    "workflowId" VARCHAR(64) NOT NULL,
    "requestType" "RequestType" NOT NULL,
    "requestStatus" "RequestStatus" NOT NULL DEFAULT 'NEW',
    "subjectUserId" INTEGER NOT NULL,
    "requesterUserId" INTEGER NOT NULL,
    "isProxyRequest" BOOLEAN NOT NULL DEFAULT false,
    "accessControls" JSONB NOT NULL,
    "existingUserAccessId" INTEGER,
    "requesterComments" VARCHAR(1024) NOT NULL DEFAULT '',
    "reviewerComments" VARCHAR(512) NOT NULL DEFAULT '',
    "sysaidTicket" VARCHAR(16) NOT NULL DEFAULT '',
    "versionno" INTEGER NOT NULL DEFAULT 0,
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastModifiedBy" VARCHAR(64) NOT NULL,

    CONSTRAINT "AccessModRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorUserId" INTEGER,
    "actorUsername" VARCHAR(64) NOT NULL,
    "entityType" VARCHAR(32) NOT NULL,
    "entityId" VARCHAR(64) NOT NULL,
    "action" VARCHAR(64) NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "workflowId" VARCHAR(64),
    "idempotencyKey" VARCHAR(128),

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" VARCHAR(64) NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "xsrfToken" VARCHAR(64) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeedRun" (
    "name" VARCHAR(64) NOT NULL,
    "ranAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeedRun_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "PortalUser_uuid_key" ON "PortalUser"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "PortalUser_username_key" ON "PortalUser"("username");

-- CreateIndex
CREATE UNIQUE INDEX "PortalUser_email_key" ON "PortalUser"("email");

-- CreateIndex
CREATE INDEX "PortalUser_lastName_firstName_idx" ON "PortalUser"("lastName", "firstName");

-- CreateIndex
CREATE INDEX "PortalUser_inactive_idx" ON "PortalUser"("inactive");

-- CreateIndex
CREATE UNIQUE INDEX "PortalRole_description_key" ON "PortalRole"("description");

-- CreateIndex
CREATE INDEX "PortalUserRole_portalRoleId_idx" ON "PortalUserRole"("portalRoleId");

-- CreateIndex
CREATE UNIQUE INDEX "StudyRole_roleName_key" ON "StudyRole"("roleName");

-- CreateIndex
CREATE UNIQUE INDEX "Site_laoCode_key" ON "Site"("laoCode");

-- CreateIndex
CREATE UNIQUE INDEX "Site_siteCode_siteType_key" ON "Site"("siteCode", "siteType");

-- CreateIndex
CREATE UNIQUE INDEX "Study_study_key" ON "Study"("study");

-- CreateIndex
CREATE UNIQUE INDEX "SiteRelation_laoCode_siteCode_studyName_key" ON "SiteRelation"("laoCode", "siteCode", "studyName");

-- CreateIndex
CREATE INDEX "UserAccess_portalUserId_inactive_idx" ON "UserAccess"("portalUserId", "inactive");

-- CreateIndex
CREATE UNIQUE INDEX "UserAccess_sourceRequestId_roleName_key" ON "UserAccess"("sourceRequestId", "roleName");

-- CreateIndex
CREATE UNIQUE INDEX "AccessModRequest_workflowId_key" ON "AccessModRequest"("workflowId");

-- CreateIndex
CREATE INDEX "AccessModRequest_requestStatus_sysdat_idx" ON "AccessModRequest"("requestStatus", "sysdat");

-- CreateIndex
CREATE INDEX "AccessModRequest_subjectUserId_idx" ON "AccessModRequest"("subjectUserId");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_idempotencyKey_key" ON "AuditEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "AuditEvent_entityType_entityId_idx" ON "AuditEvent"("entityType", "entityId");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- AddForeignKey
ALTER TABLE "PortalUserRole" ADD CONSTRAINT "PortalUserRole_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PortalUserRole" ADD CONSTRAINT "PortalUserRole_portalRoleId_fkey" FOREIGN KEY ("portalRoleId") REFERENCES "PortalRole"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyRoleSystem" ADD CONSTRAINT "StudyRoleSystem_studyRoleId_fkey" FOREIGN KEY ("studyRoleId") REFERENCES "StudyRole"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyRoleSystem" ADD CONSTRAINT "StudyRoleSystem_systemId_fkey" FOREIGN KEY ("systemId") REFERENCES "SystemAccess"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "State" ADD CONSTRAINT "State_country_fkey" FOREIGN KEY ("country") REFERENCES "Country"("country") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserAccess" ADD CONSTRAINT "UserAccess_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessModRequest" ADD CONSTRAINT "AccessModRequest_subjectUserId_fkey" FOREIGN KEY ("subjectUserId") REFERENCES "PortalUser"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessModRequest" ADD CONSTRAINT "AccessModRequest_requesterUserId_fkey" FOREIGN KEY ("requesterUserId") REFERENCES "PortalUser"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

