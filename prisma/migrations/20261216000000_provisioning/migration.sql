-- Provisioning to study systems over SCIM 2.0 (docs/decisions.md "Provisioning"): a connection per system,
-- the notices the changes write in their transactions, each account's state, and reconciliation reports.

CREATE TABLE "ProvisioningConnection" (
  "systemAccessId" INTEGER NOT NULL PRIMARY KEY REFERENCES "SystemAccess"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "baseUrl" VARCHAR(2048) NOT NULL,
  "tokenSealed" VARCHAR(4096),
  "enabled" BOOLEAN NOT NULL DEFAULT false,
  "accessAs" VARCHAR(16) NOT NULL DEFAULT 'EXTENSION',
  "deleteOnRemoval" BOOLEAN NOT NULL DEFAULT false,
  "retryDays" INTEGER NOT NULL DEFAULT 7,
  "reconcileEveryMinutes" INTEGER NOT NULL DEFAULT 1440,
  "lastTestAt" TIMESTAMP(3),
  "lastTestOk" BOOLEAN,
  "lastTestMessage" VARCHAR(1024),
  "patchSupported" BOOLEAN,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMP(3) NOT NULL
);

CREATE TABLE "ProvisioningNotice" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "systemAccessId" INTEGER NOT NULL,
  "portalUserId" INTEGER NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "workflowStartedAt" TIMESTAMP(3)
);
CREATE INDEX "ProvisioningNotice_workflowStartedAt_idx" ON "ProvisioningNotice"("workflowStartedAt");

CREATE TABLE "ProvisioningAccount" (
  "systemAccessId" INTEGER NOT NULL,
  "portalUserId" INTEGER NOT NULL,
  "state" VARCHAR(16) NOT NULL DEFAULT 'PENDING',
  "targetId" VARCHAR(256),
  "active" BOOLEAN,
  "lastError" VARCHAR(1024),
  "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "syncedAt" TIMESTAMP(3),
  PRIMARY KEY ("systemAccessId", "portalUserId")
);
CREATE INDEX "ProvisioningAccount_portalUserId_idx" ON "ProvisioningAccount"("portalUserId");
CREATE INDEX "ProvisioningAccount_systemAccessId_state_idx" ON "ProvisioningAccount"("systemAccessId", "state");

CREATE TABLE "ProvisioningReconciliation" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "systemAccessId" INTEGER NOT NULL,
  "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finishedAt" TIMESTAMP(3),
  "status" VARCHAR(16) NOT NULL DEFAULT 'RUNNING',
  "requestedBy" VARCHAR(64),
  "targetAccounts" INTEGER NOT NULL DEFAULT 0,
  "portalAccounts" INTEGER NOT NULL DEFAULT 0,
  "orphans" INTEGER NOT NULL DEFAULT 0,
  "missing" INTEGER NOT NULL DEFAULT 0,
  "drifted" INTEGER NOT NULL DEFAULT 0,
  "error" VARCHAR(1024),
  "nextIndex" INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX "ProvisioningReconciliation_systemAccessId_id_idx" ON "ProvisioningReconciliation"("systemAccessId", "id");

CREATE TABLE "ProvisioningDifference" (
  "id" BIGSERIAL NOT NULL PRIMARY KEY,
  "reconciliationId" INTEGER NOT NULL REFERENCES "ProvisioningReconciliation"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "kind" VARCHAR(16) NOT NULL,
  "externalId" VARCHAR(256),
  "userName" VARCHAR(256),
  "targetId" VARCHAR(256),
  "portalUserId" INTEGER,
  "detail" VARCHAR(2048) NOT NULL
);
CREATE INDEX "ProvisioningDifference_reconciliationId_id_idx" ON "ProvisioningDifference"("reconciliationId", "id");

CREATE TABLE "ProvisioningSeen" (
  "reconciliationId" INTEGER NOT NULL,
  "externalId" VARCHAR(256) NOT NULL,
  PRIMARY KEY ("reconciliationId", "externalId")
);
