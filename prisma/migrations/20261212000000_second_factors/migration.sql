-- Second factors (issue 37): a person's TOTP secrets, sealed, with the last accepted time step, and their
-- single-use recovery codes, hashed.

-- CreateEnum
CREATE TYPE "SecondFactorKind" AS ENUM ('TOTP');

-- CreateTable
CREATE TABLE "SecondFactor" (
    "id" SERIAL NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "kind" "SecondFactorKind" NOT NULL,
    "label" VARCHAR(64) NOT NULL,
    "secretSealed" TEXT NOT NULL,
    "lastTimeStep" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "SecondFactor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecoveryCode" (
    "id" SERIAL NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "lookup" VARCHAR(16) NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "RecoveryCode_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SecondFactor_portalUserId_idx" ON "SecondFactor"("portalUserId");

-- CreateIndex
CREATE UNIQUE INDEX "RecoveryCode_portalUserId_lookup_key" ON "RecoveryCode"("portalUserId", "lookup");

-- AddForeignKey
ALTER TABLE "SecondFactor" ADD CONSTRAINT "SecondFactor_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecoveryCode" ADD CONSTRAINT "RecoveryCode_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
