-- The sign-in's second step (issue 37): a session opened by the password of a person with a second factor is
-- limited to the second step until "secondFactorDueBy" (5 minutes), and wrong codes are counted per person
-- (slapd clears its own failure count on the password's successful bind, so it cannot count them).

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "secondFactorDueBy" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SecondFactorFailure" (
    "portalUserId" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SecondFactorFailure_pkey" PRIMARY KEY ("portalUserId")
);

-- AddForeignKey
ALTER TABLE "SecondFactorFailure" ADD CONSTRAINT "SecondFactorFailure_portalUserId_fkey" FOREIGN KEY ("portalUserId") REFERENCES "PortalUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The second step's end lifts the session's limit: every API process's session cache must hear it.
DROP TRIGGER "Session_changed" ON "Session";
CREATE TRIGGER "Session_changed" AFTER DELETE OR UPDATE OF "passwordChangeRequired", "secondFactorDueBy", "xsrfToken", "portalUserId"
  ON "Session" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();
