-- Passkeys and security keys (WebAuthn) as a second factor and as a whole sign-in (docs/decisions.md "Passkeys").

-- AlterEnum
ALTER TYPE "SecondFactorKind" ADD VALUE 'WEBAUTHN';

-- CreateEnum
CREATE TYPE "WebAuthnPurpose" AS ENUM ('REGISTER', 'SECOND_STEP', 'SIGN_IN');

-- AlterTable: a passkey has no shared secret
ALTER TABLE "SecondFactor" ALTER COLUMN "secretSealed" DROP NOT NULL;

-- CreateTable
CREATE TABLE "WebAuthnCredential" (
    "factorId" INTEGER NOT NULL,
    "credentialId" VARCHAR(1400) NOT NULL,
    "publicKey" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "aaguid" VARCHAR(36) NOT NULL,
    "backupEligible" BOOLEAN NOT NULL,
    "backedUp" BOOLEAN NOT NULL,

    CONSTRAINT "WebAuthnCredential_pkey" PRIMARY KEY ("factorId")
);

-- CreateTable
CREATE TABLE "WebAuthnChallenge" (
    "id" VARCHAR(64) NOT NULL,
    "purpose" "WebAuthnPurpose" NOT NULL,
    "portalUserId" INTEGER,
    "sessionId" VARCHAR(64),
    "label" VARCHAR(64),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebAuthnChallenge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebAuthnCredential_credentialId_key" ON "WebAuthnCredential"("credentialId");

-- CreateIndex
CREATE INDEX "WebAuthnChallenge_expiresAt_idx" ON "WebAuthnChallenge"("expiresAt");

-- AddForeignKey
ALTER TABLE "WebAuthnCredential" ADD CONSTRAINT "WebAuthnCredential_factorId_fkey" FOREIGN KEY ("factorId") REFERENCES "SecondFactor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebAuthnChallenge" ADD CONSTRAINT "WebAuthnChallenge_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
