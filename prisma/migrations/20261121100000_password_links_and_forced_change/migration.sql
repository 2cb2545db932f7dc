-- CreateEnum
CREATE TYPE "PasswordLinkPurpose" AS ENUM ('SET_INITIAL', 'RESET');

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "passwordChangeRequired" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "PasswordLink" (
    "id" SERIAL NOT NULL,
    "digest" VARCHAR(64) NOT NULL,
    "portalUserId" INTEGER NOT NULL,
    "purpose" "PasswordLinkPurpose" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "PasswordLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PasswordLink_digest_key" ON "PasswordLink"("digest");

-- CreateIndex
CREATE INDEX "PasswordLink_portalUserId_purpose_idx" ON "PasswordLink"("portalUserId", "purpose");

-- AddForeignKey
ALTER TABLE "PasswordLink" ADD CONSTRAINT "PasswordLink_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

