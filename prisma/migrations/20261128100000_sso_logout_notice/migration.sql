-- Back-channel logout notices (issue 22): one per system owed a logout token, written with the revocation.
CREATE TABLE "SsoLogoutNotice" (
    "id" SERIAL NOT NULL,
    "clientId" VARCHAR(128) NOT NULL,
    "subjectId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "workflowStartedAt" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "lastError" VARCHAR(1024),
    CONSTRAINT "SsoLogoutNotice_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "SsoLogoutNotice_workflowStartedAt_idx" ON "SsoLogoutNotice"("workflowStartedAt");
