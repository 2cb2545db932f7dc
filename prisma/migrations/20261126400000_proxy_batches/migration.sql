-- Proxy bulk batches (001 §2.7, §3): the batch with its run summary, and one result row per selected user

-- CreateEnum
CREATE TYPE "ProxyBatchStatus" AS ENUM ('RUNNING', 'COMPLETED', 'ABORTED');

-- CreateTable
CREATE TABLE "ProxyBatch" (
    "id" SERIAL NOT NULL,
    "workflowId" VARCHAR(64) NOT NULL,
    "status" "ProxyBatchStatus" NOT NULL DEFAULT 'RUNNING',
    "proxyUserId" INTEGER NOT NULL,
    "accessControls" JSONB NOT NULL,
    "requesterComments" VARCHAR(250) NOT NULL DEFAULT '',
    "totalRequests" INTEGER NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "numSuccesses" INTEGER NOT NULL DEFAULT 0,
    "numFailures" INTEGER NOT NULL DEFAULT 0,
    "abortedProcessing" BOOLEAN NOT NULL DEFAULT false,
    "abortStatusCode" INTEGER,
    "abortStatusText" VARCHAR(255),
    "abortRequestNum" INTEGER,
    "sysdat" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "workflowStartedAt" TIMESTAMP(3),

    CONSTRAINT "ProxyBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProxyBatchItem" (
    "batchId" INTEGER NOT NULL,
    "requestNum" INTEGER NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "firstName" VARCHAR(45) NOT NULL,
    "lastName" VARCHAR(45) NOT NULL,
    "email" VARCHAR(256) NOT NULL,
    "responseStatus" INTEGER,
    "success" BOOLEAN,
    "activeRequestAlreadyExistsForUser" BOOLEAN NOT NULL DEFAULT false,
    "requestType" "RequestType",
    "accessModRequestId" INTEGER,
    "fieldErrors" JSONB,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "ProxyBatchItem_pkey" PRIMARY KEY ("batchId","requestNum")
);

-- CreateIndex
CREATE UNIQUE INDEX "ProxyBatch_workflowId_key" ON "ProxyBatch"("workflowId");

-- CreateIndex
CREATE INDEX "ProxyBatch_proxyUserId_sysdat_idx" ON "ProxyBatch"("proxyUserId", "sysdat");

-- CreateIndex
CREATE INDEX "ProxyBatch_workflowStartedAt_idx" ON "ProxyBatch"("workflowStartedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ProxyBatchItem_accessModRequestId_key" ON "ProxyBatchItem"("accessModRequestId");

-- CreateIndex
CREATE UNIQUE INDEX "ProxyBatchItem_batchId_portalUserId_key" ON "ProxyBatchItem"("batchId", "portalUserId");

-- AddForeignKey
ALTER TABLE "ProxyBatchItem" ADD CONSTRAINT "ProxyBatchItem_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "ProxyBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;
