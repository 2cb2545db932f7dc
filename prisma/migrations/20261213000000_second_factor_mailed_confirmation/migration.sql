-- A person's first second factor is confirmed through a link mailed to them (issue 37, docs/decisions.md
-- "Second factors"), so a stolen password alone cannot enrol an attacker's authenticator: the proven
-- enrolment keeps the link's SHA-256 digest and expiry until the person follows it.

-- AlterTable
ALTER TABLE "SecondFactor" ADD COLUMN "provenAt" TIMESTAMP(3),
ADD COLUMN "linkDigest" VARCHAR(64),
ADD COLUMN "linkExpiresAt" TIMESTAMP(3);

-- CreateIndex
CREATE UNIQUE INDEX "SecondFactor_linkDigest_key" ON "SecondFactor"("linkDigest");
