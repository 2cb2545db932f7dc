-- CreateEnum
CREATE TYPE "OutboundMailStatus" AS ENUM ('SENDING', 'SENT');

-- AlterTable: rows filed before this release have running workflows (they were started inside the filing transaction).
ALTER TABLE "AccessModRequest" ADD COLUMN     "workflowStartedAt" TIMESTAMP(3);
UPDATE "AccessModRequest" SET "workflowStartedAt" = "sysdat";

-- CreateTable
CREATE TABLE "OutboundMail" (
    "key" VARCHAR(128) NOT NULL,
    "messageId" VARCHAR(255) NOT NULL,
    "status" "OutboundMailStatus" NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL,
    "claimToken" VARCHAR(64) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "OutboundMail_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "AccessModRequest_workflowStartedAt_idx" ON "AccessModRequest"("workflowStartedAt");
