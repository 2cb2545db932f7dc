-- How and when the person of a session proved who they are (issue 37): the ID token's `auth_time` and
-- `amr` (RFC 8176), and what a study system's demand for a multi-factor level is checked against.

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "authenticatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "amr" TEXT[] DEFAULT ARRAY['pwd']::TEXT[];

-- A session's methods change with its second step: every API process's session cache must hear it.
DROP TRIGGER "Session_changed" ON "Session";
CREATE TRIGGER "Session_changed" AFTER DELETE OR UPDATE OF "passwordChangeRequired", "secondFactorDueBy", "xsrfToken", "portalUserId", "amr", "authenticatedAt"
  ON "Session" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();
