-- Approval policies (docs/decisions.md "Approval policies"): policies per study role, the named approvers of a
-- study, each request's plan and its stages, and the open stage as columns of the request so the queue of
-- 'Awaiting my approval' is SQL over a partial index.

CREATE TYPE "ApproverGroup" AS ENUM ('LAO_STAFF', 'STUDY_APPROVERS', 'USER_SUPPORT');

CREATE TABLE "ApprovalPolicy" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "studyRoleId" INTEGER NOT NULL REFERENCES "StudyRole"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "systemAccessId" INTEGER REFERENCES "SystemAccess"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "stages" JSONB NOT NULL,
  "active" BOOLEAN NOT NULL DEFAULT true,
  "versionno" INTEGER NOT NULL DEFAULT 0,
  "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "dchng" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lastModifiedBy" VARCHAR(64) NOT NULL
);
CREATE INDEX "ApprovalPolicy_studyRoleId_idx" ON "ApprovalPolicy"("studyRoleId");
-- One policy per study role and system (any system: the null one).
CREATE UNIQUE INDEX "ApprovalPolicy_role_system_key" ON "ApprovalPolicy"("studyRoleId", COALESCE("systemAccessId", 0));

CREATE TABLE "StudyApprover" (
  "studyId" INTEGER NOT NULL REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "portalUserId" INTEGER NOT NULL REFERENCES "PortalUser"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("studyId", "portalUserId")
);
CREATE INDEX "StudyApprover_portalUserId_idx" ON "StudyApprover"("portalUserId");

ALTER TABLE "AccessModRequest"
  ADD COLUMN "approvalPlan" JSONB,
  ADD COLUMN "approvalStage" INTEGER,
  ADD COLUMN "approvalGroup" "ApproverGroup",
  ADD COLUMN "approvalDeadline" TIMESTAMP(3),
  ADD COLUMN "approvalLaoIds" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  ADD COLUMN "approvalStudyNames" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
-- Only requests with an open stage are in it: 'Awaiting my approval' stays flat however many requests exist.
CREATE INDEX "AccessModRequest_approval_open_idx" ON "AccessModRequest"("approvalGroup", "approvalDeadline")
  WHERE "approvalStage" IS NOT NULL;

CREATE TABLE "AccessRequestStage" (
  "requestId" INTEGER NOT NULL REFERENCES "AccessModRequest"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "stage" INTEGER NOT NULL,
  "approvers" "ApproverGroup" NOT NULL,
  "escalateTo" "ApproverGroup" NOT NULL,
  "approverGroup" "ApproverGroup" NOT NULL,
  "deadlineDays" INTEGER NOT NULL,
  "reminderDays" INTEGER NOT NULL,
  "state" VARCHAR(16) NOT NULL DEFAULT 'WAITING',
  "openedAt" TIMESTAMP(3),
  "remindAt" TIMESTAMP(3),
  "deadlineAt" TIMESTAMP(3),
  "remindedAt" TIMESTAMP(3),
  "escalatedAt" TIMESTAMP(3),
  "decidedAt" TIMESTAMP(3),
  "decidedByUserId" INTEGER,
  "decidedBy" VARCHAR(64),
  "comment" VARCHAR(512),
  PRIMARY KEY ("requestId", "stage")
);
