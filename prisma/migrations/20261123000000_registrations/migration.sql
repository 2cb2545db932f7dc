-- CreateEnum
CREATE TYPE "RegistrationStatus" AS ENUM ('PENDING', 'APPROVED', 'DENIED', 'DELETED');

-- CreateTable
CREATE TABLE "Registration" (
    "id" SERIAL NOT NULL,
    "workflowId" VARCHAR(64) NOT NULL,
    "registrationStatus" "RegistrationStatus" NOT NULL DEFAULT 'PENDING',
    "firstName" VARCHAR(45) NOT NULL,
    "lastName" VARCHAR(45) NOT NULL,
    "jobTitle" VARCHAR(45) NOT NULL,
    "organizationName" VARCHAR(64) NOT NULL,
    "phoneNumber" VARCHAR(15) NOT NULL,
    "phoneExtension" VARCHAR(5) NOT NULL DEFAULT '',
    "email" VARCHAR(256) NOT NULL,
    "accessControls" JSONB NOT NULL,
    "requesterComments" VARCHAR(512) NOT NULL DEFAULT '',
    "reviewerComments" VARCHAR(512) NOT NULL DEFAULT '',
    "sysaidTicket" VARCHAR(16) NOT NULL DEFAULT '',
    "portalRoleIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "isProxy" BOOLEAN NOT NULL DEFAULT false,
    "proxyUserId" INTEGER,
    "proxyName" VARCHAR(91),
    "proxyEmail" VARCHAR(256),
    "proxyPhone" VARCHAR(15),
    "proxyPhoneExt" VARCHAR(5),
    "personCompletingThisFormEmail" VARCHAR(256) NOT NULL DEFAULT '',
    "personCompletingThisFormFullName" VARCHAR(91) NOT NULL DEFAULT '',
    "personCompletingThisFormPhoneNumber" VARCHAR(15) NOT NULL DEFAULT '',
    "personCompletingThisFormPhoneExtension" VARCHAR(5) NOT NULL DEFAULT '',
    "username" VARCHAR(64),
    "gecos" VARCHAR(91),
    "accountType" VARCHAR(32),
    "directoryUuid" VARCHAR(64),
    "portalUserId" INTEGER,
    "passwordLinkId" INTEGER,
    "versionno" INTEGER NOT NULL DEFAULT 0,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastModifiedBy" VARCHAR(64) NOT NULL,
    "workflowStartedAt" TIMESTAMP(3),

    CONSTRAINT "Registration_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Registration_workflowId_key" ON "Registration"("workflowId");

-- CreateIndex
CREATE UNIQUE INDEX "Registration_portalUserId_key" ON "Registration"("portalUserId");

-- CreateIndex
CREATE INDEX "Registration_registrationStatus_sysdat_idx" ON "Registration"("registrationStatus", "sysdat");

-- CreateIndex
CREATE INDEX "Registration_email_idx" ON "Registration"("email");

-- CreateIndex
CREATE INDEX "Registration_proxyUserId_idx" ON "Registration"("proxyUserId");

-- CreateIndex
CREATE INDEX "Registration_workflowStartedAt_idx" ON "Registration"("workflowStartedAt");
