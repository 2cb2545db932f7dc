-- CreateTable
CREATE TABLE "UnknownSignInFailure" (
    "digest" VARCHAR(64) NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastFailedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UnknownSignInFailure_pkey" PRIMARY KEY ("digest")
);

-- CreateIndex
CREATE INDEX "UnknownSignInFailure_lastFailedAt_idx" ON "UnknownSignInFailure"("lastFailedAt");
