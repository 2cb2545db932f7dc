-- Every write that can end a session or change what a session may do announces itself on the channel
-- session_changed (issue 14: the API keeps a per-process cache of session look-ups and drops entries on these
-- notifications, so sign-out, a password change, deactivation and role changes reach every API process).
-- Payloads: s:<session id digest> for one session, u:<portal user id> for every session of a user, and *
-- for all sessions (a portal role changed its permissions). PostgreSQL delivers them at commit, in commit
-- order, and folds identical payloads of one transaction into one.
-- The sliding-expiry write (lastSeen and expiresAt) is not announced: it ends nothing.

-- Prisma runs a migration split at every semicolon, quoted or not, so the body is an escape string whose
-- statement ends are written as the octal escape 073.
CREATE FUNCTION "session_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_TABLE_NAME = ''Session'' THEN
    PERFORM pg_notify(''session_changed'', ''s:'' || OLD."id")\073
  ELSIF TG_TABLE_NAME = ''PortalUser'' THEN
    PERFORM pg_notify(''session_changed'', ''u:'' || OLD."id")\073
  ELSIF TG_TABLE_NAME = ''PortalUserRole'' THEN
    IF TG_OP <> ''DELETE'' THEN
      PERFORM pg_notify(''session_changed'', ''u:'' || NEW."portalUserId")\073
    END IF\073
    IF TG_OP <> ''INSERT'' THEN
      PERFORM pg_notify(''session_changed'', ''u:'' || OLD."portalUserId")\073
    END IF\073
  ELSE
    PERFORM pg_notify(''session_changed'', ''*'')\073
  END IF\073
  RETURN NULL\073
END
';

CREATE TRIGGER "Session_changed" AFTER DELETE OR UPDATE OF "passwordChangeRequired", "xsrfToken", "portalUserId"
  ON "Session" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();

CREATE TRIGGER "PortalUser_changed" AFTER DELETE OR UPDATE OF "inactive", "username", "firstName", "lastName", "email"
  ON "PortalUser" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();

CREATE TRIGGER "PortalUserRole_changed" AFTER INSERT OR UPDATE OR DELETE
  ON "PortalUserRole" FOR EACH ROW EXECUTE FUNCTION "session_changed_notify"();

CREATE TRIGGER "PortalRole_changed" AFTER UPDATE OF "permissions", "inactive" OR DELETE
  ON "PortalRole" FOR EACH STATEMENT EXECUTE FUNCTION "session_changed_notify"();
