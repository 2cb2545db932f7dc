-- A person who must use a second factor and has none holds a session restricted to enrolling one (issue 37,
-- docs/decisions.md "Second factors").

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "secondFactorEnrolmentDue" BOOLEAN NOT NULL DEFAULT false;

-- The restriction ends once a factor signs the person in: every API process's session cache must hear it.
DROP TRIGGER "Session_changed" ON "Session";
CREATE TRIGGER "Session_changed" AFTER DELETE OR UPDATE OF "passwordChangeRequired", "secondFactorDueBy", "xsrfToken", "portalUserId", "amr", "authenticatedAt", "secondFactorEnrolmentDue"
  ON "Session" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();
