-- Issue 25 (access review campaigns): a campaign snapshots the access records in its scope into review items,
-- reviewers decide each item Keep or Remove until the deadline, and the campaign applies the decisions. A
-- recurring campaign is a schedule that files one campaign per run.
CREATE TYPE "AccessReviewStatus" AS ENUM ('STARTING', 'OPEN', 'CLOSING', 'CLOSED', 'CANCELLED');
CREATE TYPE "AccessReviewReviewers" AS ENUM ('LAO_STAFF', 'USER_SUPPORT');
CREATE TYPE "AccessReviewDecision" AS ENUM ('KEEP', 'REMOVE');
CREATE TYPE "AccessReviewOutcome" AS ENUM ('KEPT', 'REMOVED', 'CHANGED');

CREATE TABLE "AccessReviewSchedule" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(128) NOT NULL,
    "scope" JSONB NOT NULL,
    "reviewers" "AccessReviewReviewers" NOT NULL,
    "durationDays" INTEGER NOT NULL,
    "reminderEveryDays" INTEGER NOT NULL,
    "defaultDecision" "AccessReviewDecision" NOT NULL,
    "everyDays" INTEGER NOT NULL,
    "inactive" BOOLEAN NOT NULL DEFAULT false,
    "createdByUserId" INTEGER NOT NULL,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessReviewSchedule_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "AccessReviewCampaign" (
    "id" SERIAL NOT NULL,
    "workflowId" VARCHAR(64) NOT NULL,
    "name" VARCHAR(128) NOT NULL,
    "scope" JSONB NOT NULL,
    "reviewers" "AccessReviewReviewers" NOT NULL,
    "durationDays" INTEGER NOT NULL,
    "reminderEveryDays" INTEGER NOT NULL,
    "defaultDecision" "AccessReviewDecision" NOT NULL,
    "status" "AccessReviewStatus" NOT NULL DEFAULT 'STARTING',
    "scheduleId" INTEGER,
    "createdByUserId" INTEGER,
    "createdByUsername" VARCHAR(64) NOT NULL,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "workflowStartedAt" TIMESTAMP(3),
    "openedAt" TIMESTAMP(3),
    "deadline" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "closedByUsername" VARCHAR(64),
    "itemsTotal" INTEGER NOT NULL DEFAULT 0,
    "removedCount" INTEGER NOT NULL DEFAULT 0,
    "keptCount" INTEGER NOT NULL DEFAULT 0,
    "changedCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AccessReviewCampaign_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "AccessReviewCampaign_workflowId_key" ON "AccessReviewCampaign"("workflowId");
CREATE INDEX "AccessReviewCampaign_status_sysdat_idx" ON "AccessReviewCampaign"("status", "sysdat");
CREATE INDEX "AccessReviewCampaign_workflowStartedAt_idx" ON "AccessReviewCampaign"("workflowStartedAt");
ALTER TABLE "AccessReviewCampaign" ADD CONSTRAINT "AccessReviewCampaign_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "AccessReviewSchedule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "AccessReviewItem" (
    "id" SERIAL NOT NULL,
    "campaignId" INTEGER NOT NULL,
    "accessId" INTEGER NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "username" VARCHAR(64) NOT NULL,
    "firstName" VARCHAR(45) NOT NULL,
    "lastName" VARCHAR(45) NOT NULL,
    "email" VARCHAR(256) NOT NULL,
    "roleName" VARCHAR(128) NOT NULL,
    "siteCodes" TEXT[],
    "laoIds" TEXT[],
    "studyNames" TEXT[],
    "systemAccessIds" INTEGER[],
    "accessEndDate" DATE,
    "reviewLaoIds" TEXT[],
    "decision" "AccessReviewDecision",
    "comment" VARCHAR(250),
    "decidedByUserId" INTEGER,
    "decidedByUsername" VARCHAR(64),
    "decidedAt" TIMESTAMP(3),
    "defaulted" BOOLEAN NOT NULL DEFAULT false,
    "outcome" "AccessReviewOutcome",
    "appliedAt" TIMESTAMP(3),
    "removalMailSentAt" TIMESTAMP(3),

    CONSTRAINT "AccessReviewItem_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "AccessReviewItem_campaignId_accessId_key" ON "AccessReviewItem"("campaignId", "accessId");
CREATE INDEX "AccessReviewItem_campaignId_portalUserId_idx" ON "AccessReviewItem"("campaignId", "portalUserId");
ALTER TABLE "AccessReviewItem" ADD CONSTRAINT "AccessReviewItem_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "AccessReviewCampaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A reviewer's page: items grouped by person (name order) within a campaign, the LAO filter by the GIN index.
CREATE INDEX "AccessReviewItem_campaign_person_idx" ON "AccessReviewItem"("campaignId", "lastName", "firstName", "portalUserId", "id");
CREATE INDEX "AccessReviewItem_reviewLaoIds_idx" ON "AccessReviewItem" USING GIN ("reviewLaoIds");
-- Removals pending their person's mail.
CREATE INDEX "AccessReviewItem_removal_mail_pending_idx" ON "AccessReviewItem"("campaignId", "portalUserId")
  WHERE "outcome" = 'REMOVED' AND "removalMailSentAt" IS NULL;
