-- Flat at a million rows (issue 24 Growth): the review queue, the Users list, the audit trail and the
-- access-modification report answer in the same time at 10,000 and at 1,000,000 rows. Prisma's schema cannot
-- express what follows (a table written by triggers, partial and covering indexes, trigram indexes), so it
-- lives here only, as the earlier users-list indexes do: the schema does not list these objects.
--
-- 1. The queue's read model becomes a table kept by triggers instead of a view. The view unioned three tables
--    joined to PortalUser, so no index could serve its order, its filter or its count: at 1,000,000 requests
--    the first page took about 1 s. The table has the view's columns (every reader keeps working) plus
--    "portalUserId" (whose name the row shows) and "searchText" (what the OR filter of 000 section 7 searches,
--    lower-cased, one field per line), kept in the same transaction as the write, so a reviewer's next GET
--    still sees their save. Statement-level triggers with transition tables keep bulk writes set-based.
-- 2. Counts maintained per kind and status (and per tab of the Users list, and for the audit trail) in small
--    counter tables: an unfiltered page reads its total from them instead of counting a million index entries.
--    Each writer adds to one of 16 slots (its backend pid modulo 16), so concurrent filings rarely wait on one
--    another's counter row, the total is the sum of the slots.
-- 3. Covering indexes for the default orders, so a deep page is an index-only walk of keys (the deferred join
--    of the API's statements), and trigram indexes for the filters.
--
-- Prisma runs a migration split at every semicolon, quoted or not, so function bodies are escape strings whose
-- statement ends are the octal escape 073 (as in 20261126600000_session_change_notify).

DROP VIEW "UserRequestQueue";

CREATE TABLE "UserRequestQueue" (
  "userRequestType" text NOT NULL,
  "id" integer NOT NULL,
  "requestType" text,
  "requestStatus" text NOT NULL,
  "resolved" boolean NOT NULL,
  "sysdat" timestamp(3) NOT NULL,
  "sysaidTicket" text NOT NULL,
  "dchng" timestamp(3) NOT NULL,
  "lastModifiedBy" text NOT NULL,
  "firstName" text NOT NULL,
  "lastName" text NOT NULL,
  "email" text NOT NULL,
  "organizationName" text NOT NULL,
  "portalUserId" integer,
  "searchText" text NOT NULL,
  PRIMARY KEY ("userRequestType", "id")
);

-- What the queue's OR filter searches, one field per line: names, email, organisation, ticket, last modified
-- by, and both dates as the screens show them (web/src/shared/format.ts, in UTC). to_char is not immutable,
-- so this cannot be a generated column, the triggers call it.
CREATE FUNCTION "user_request_search_text"(
  "firstName" text, "lastName" text, "email" text, "organizationName" text, "sysaidTicket" text,
  "lastModifiedBy" text, "sysdat" timestamp, "dchng" timestamp
) RETURNS text LANGUAGE sql STABLE AS E'
  SELECT lower("firstName" || E''\\n'' || "lastName" || E''\\n'' || "email" || E''\\n'' || "organizationName" || E''\\n'' ||
    "sysaidTicket" || E''\\n'' || "lastModifiedBy" || E''\\n'' || to_char("sysdat", ''MM/DD/YYYY FMHH12:MI AM'') || E''\\n'' ||
    to_char("dchng", ''MM/DD/YYYY FMHH12:MI AM''))
';

-- The queue rows of each kind, as the view selected them, for the rows of a transition table.
CREATE FUNCTION "user_request_queue_access_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    DELETE FROM "UserRequestQueue" q USING old_rows o
      WHERE q."userRequestType" = ''ACCESS_CHANGE'' AND q."id" = o."id"\073
  ELSIF TG_OP = ''UPDATE'' THEN
    -- Only rows whose queue columns changed are replaced (the others conflict below and stay).
    DELETE FROM "UserRequestQueue" q USING old_rows o JOIN new_rows n ON n."id" = o."id"
      WHERE q."userRequestType" = ''ACCESS_CHANGE'' AND q."id" = o."id"
        AND (o."requestType", o."requestStatus", o."sysdat", o."sysaidTicket", o."dchng", o."lastModifiedBy", o."subjectUserId")
          IS DISTINCT FROM (n."requestType", n."requestStatus", n."sysdat", n."sysaidTicket", n."dchng", n."lastModifiedBy", n."subjectUserId")\073
  END IF\073
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    INSERT INTO "UserRequestQueue"
    SELECT ''ACCESS_CHANGE'', r."id", r."requestType"::text, r."requestStatus"::text,
      r."requestStatus"::text IN (''APPROVED'', ''REJECTED''), r."sysdat", r."sysaidTicket", r."dchng",
      r."lastModifiedBy", u."firstName", u."lastName", u."email", u."organizationName", u."id",
      "user_request_search_text"(u."firstName", u."lastName", u."email", u."organizationName", r."sysaidTicket",
        r."lastModifiedBy", r."sysdat", r."dchng")
    FROM new_rows r JOIN "PortalUser" u ON u."id" = r."subjectUserId"
    ORDER BY r."id"
    ON CONFLICT DO NOTHING\073
  END IF\073
  RETURN NULL\073
END ';

CREATE FUNCTION "user_request_queue_registration"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    DELETE FROM "UserRequestQueue" q USING old_rows o
      WHERE q."userRequestType" = ''REGISTRATION'' AND q."id" = o."id"\073
  ELSIF TG_OP = ''UPDATE'' THEN
    -- Only rows whose queue columns changed are replaced (the others conflict below and stay).
    DELETE FROM "UserRequestQueue" q USING old_rows o JOIN new_rows n ON n."id" = o."id"
      WHERE q."userRequestType" = ''REGISTRATION'' AND q."id" = o."id"
        AND (o."registrationStatus", o."sysdat", o."sysaidTicket", o."dchng", o."lastModifiedBy", o."firstName", o."lastName", o."email", o."organizationName")
          IS DISTINCT FROM (n."registrationStatus", n."sysdat", n."sysaidTicket", n."dchng", n."lastModifiedBy", n."firstName", n."lastName", n."email", n."organizationName")\073
  END IF\073
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    INSERT INTO "UserRequestQueue"
    SELECT ''REGISTRATION'', g."id", NULL, g."registrationStatus"::text, g."registrationStatus"::text <> ''PENDING'',
      g."sysdat", g."sysaidTicket", g."dchng", g."lastModifiedBy", g."firstName", g."lastName", g."email",
      g."organizationName", NULL,
      "user_request_search_text"(g."firstName", g."lastName", g."email", g."organizationName", g."sysaidTicket",
        g."lastModifiedBy", g."sysdat", g."dchng")
    FROM new_rows g
    WHERE g."registrationStatus"::text <> ''DELETED''
    ORDER BY g."id"
    ON CONFLICT DO NOTHING\073
  END IF\073
  RETURN NULL\073
END ';

CREATE FUNCTION "user_request_queue_profile_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' THEN
    DELETE FROM "UserRequestQueue" q USING old_rows o
      WHERE q."userRequestType" = ''PROFILE_CHANGE'' AND q."id" = o."id"\073
  ELSIF TG_OP = ''UPDATE'' THEN
    -- Only rows whose queue columns changed are replaced (the others conflict below and stay).
    DELETE FROM "UserRequestQueue" q USING old_rows o JOIN new_rows n ON n."id" = o."id"
      WHERE q."userRequestType" = ''PROFILE_CHANGE'' AND q."id" = o."id"
        AND (o."requestStatus", o."sysdat", o."sysaidTicket", o."dchng", o."lastModifiedBy", o."portalUserId")
          IS DISTINCT FROM (n."requestStatus", n."sysdat", n."sysaidTicket", n."dchng", n."lastModifiedBy", n."portalUserId")\073
  END IF\073
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    INSERT INTO "UserRequestQueue"
    SELECT ''PROFILE_CHANGE'', p."id", NULL, p."requestStatus"::text, p."requestStatus"::text IN (''APPROVED'', ''REJECTED''),
      p."sysdat", p."sysaidTicket", p."dchng", p."lastModifiedBy", u."firstName", u."lastName", u."email",
      u."organizationName", u."id",
      "user_request_search_text"(u."firstName", u."lastName", u."email", u."organizationName", p."sysaidTicket",
        p."lastModifiedBy", p."sysdat", p."dchng")
    FROM new_rows p JOIN "PortalUser" u ON u."id" = p."portalUserId"
    ORDER BY p."id"
    ON CONFLICT DO NOTHING\073
  END IF\073
  RETURN NULL\073
END ';

-- A person's new name, email or organisation shows on their access-change and profile-change rows.
CREATE FUNCTION "user_request_queue_person"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "UserRequestQueue" q
  SET "firstName" = n."firstName", "lastName" = n."lastName", "email" = n."email",
    "organizationName" = n."organizationName",
    "searchText" = "user_request_search_text"(n."firstName", n."lastName", n."email", n."organizationName",
      q."sysaidTicket", q."lastModifiedBy", q."sysdat", q."dchng")
  FROM new_rows n JOIN old_rows o ON o."id" = n."id"
  WHERE q."portalUserId" = n."id" AND q."userRequestType" IN (''ACCESS_CHANGE'', ''PROFILE_CHANGE'')
    AND (n."firstName", n."lastName", n."email", n."organizationName")
      IS DISTINCT FROM (o."firstName", o."lastName", o."email", o."organizationName")\073
  RETURN NULL\073
END ';

-- The three request tables and PortalUser: one trigger per operation (a transition table belongs to one event).
CREATE TRIGGER "AccessModRequest_queue_ins" AFTER INSERT ON "AccessModRequest"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_access_change"();
CREATE TRIGGER "AccessModRequest_queue_upd" AFTER UPDATE ON "AccessModRequest"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "user_request_queue_access_change"();
CREATE TRIGGER "AccessModRequest_queue_del" AFTER DELETE ON "AccessModRequest"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_access_change"();
CREATE TRIGGER "Registration_queue_ins" AFTER INSERT ON "Registration"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_registration"();
CREATE TRIGGER "Registration_queue_upd" AFTER UPDATE ON "Registration"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "user_request_queue_registration"();
CREATE TRIGGER "Registration_queue_del" AFTER DELETE ON "Registration"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_registration"();
CREATE TRIGGER "ProfileChangeRequest_queue_ins" AFTER INSERT ON "ProfileChangeRequest"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_profile_change"();
CREATE TRIGGER "ProfileChangeRequest_queue_upd" AFTER UPDATE ON "ProfileChangeRequest"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "user_request_queue_profile_change"();
CREATE TRIGGER "ProfileChangeRequest_queue_del" AFTER DELETE ON "ProfileChangeRequest"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_profile_change"();
CREATE TRIGGER "PortalUser_queue_upd" AFTER UPDATE ON "PortalUser"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "user_request_queue_person"();

-- The rows already filed.
INSERT INTO "UserRequestQueue"
SELECT 'ACCESS_CHANGE', r."id", r."requestType"::text, r."requestStatus"::text,
  r."requestStatus"::text IN ('APPROVED', 'REJECTED'), r."sysdat", r."sysaidTicket", r."dchng", r."lastModifiedBy",
  u."firstName", u."lastName", u."email", u."organizationName", u."id",
  "user_request_search_text"(u."firstName", u."lastName", u."email", u."organizationName", r."sysaidTicket",
    r."lastModifiedBy", r."sysdat", r."dchng")
FROM "AccessModRequest" r JOIN "PortalUser" u ON u."id" = r."subjectUserId";
INSERT INTO "UserRequestQueue"
SELECT 'REGISTRATION', g."id", NULL, g."registrationStatus"::text, g."registrationStatus"::text <> 'PENDING',
  g."sysdat", g."sysaidTicket", g."dchng", g."lastModifiedBy", g."firstName", g."lastName", g."email",
  g."organizationName", NULL,
  "user_request_search_text"(g."firstName", g."lastName", g."email", g."organizationName", g."sysaidTicket",
    g."lastModifiedBy", g."sysdat", g."dchng")
FROM "Registration" g WHERE g."registrationStatus"::text <> 'DELETED';
INSERT INTO "UserRequestQueue"
SELECT 'PROFILE_CHANGE', p."id", NULL, p."requestStatus"::text, p."requestStatus"::text IN ('APPROVED', 'REJECTED'),
  p."sysdat", p."sysaidTicket", p."dchng", p."lastModifiedBy", u."firstName", u."lastName", u."email",
  u."organizationName", u."id",
  "user_request_search_text"(u."firstName", u."lastName", u."email", u."organizationName", p."sysaidTicket",
    p."lastModifiedBy", p."sysdat", p."dchng")
FROM "ProfileChangeRequest" p JOIN "PortalUser" u ON u."id" = p."portalUserId";

-- The queue's default order (dateSubmitted,desc: "sysdat" DESC NULLS LAST, then "id" DESC) for the 'all',
-- 'pending' and per-status views, covering the key so that skipping rows of a deep page reads the index only.
CREATE INDEX "UserRequestQueue_sysdat_idx" ON "UserRequestQueue" ("sysdat" DESC NULLS LAST, "id" DESC)
  INCLUDE ("userRequestType");
CREATE INDEX "UserRequestQueue_pending_sysdat_idx" ON "UserRequestQueue" ("sysdat" DESC NULLS LAST, "id" DESC)
  INCLUDE ("userRequestType") WHERE NOT "resolved";
CREATE INDEX "UserRequestQueue_status_sysdat_idx" ON "UserRequestQueue"
  ("requestStatus", "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType");
CREATE INDEX "UserRequestQueue_portalUserId_idx" ON "UserRequestQueue" ("portalUserId");
CREATE INDEX "UserRequestQueue_searchText_trgm_idx" ON "UserRequestQueue" USING GIN ("searchText" gin_trgm_ops);
-- The dashboard's decisions (resolved rows by their last change).
CREATE INDEX "UserRequestQueue_resolved_dchng_idx" ON "UserRequestQueue" ("dchng" DESC, "id" DESC) WHERE "resolved";

-- Counts of the queue per kind and status, kept by the queue table's own triggers.
CREATE TABLE "UserRequestQueueCount" (
  "userRequestType" text NOT NULL,
  "requestStatus" text NOT NULL,
  "resolved" boolean NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("userRequestType", "requestStatus", "slot")
);

-- The request triggers replace a changed row (DELETE, then INSERT), so counting inserts and deletes is enough,
-- the person trigger's UPDATE changes no status.
CREATE FUNCTION "user_request_queue_count_ins"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "UserRequestQueueCount" AS c ("userRequestType", "requestStatus", "resolved", "slot", "n")
  SELECT "userRequestType", "requestStatus", bool_or("resolved"), pg_backend_pid() % 16, count(*)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("userRequestType", "requestStatus", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  RETURN NULL\073
END ';

CREATE FUNCTION "user_request_queue_count_del"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "UserRequestQueueCount" AS c ("userRequestType", "requestStatus", "resolved", "slot", "n")
  SELECT "userRequestType", "requestStatus", bool_or("resolved"), pg_backend_pid() % 16, -count(*)
  FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("userRequestType", "requestStatus", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  RETURN NULL\073
END ';

CREATE TRIGGER "UserRequestQueue_count_ins" AFTER INSERT ON "UserRequestQueue"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_count_ins"();
CREATE TRIGGER "UserRequestQueue_count_del" AFTER DELETE ON "UserRequestQueue"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_count_del"();

INSERT INTO "UserRequestQueueCount"
SELECT "userRequestType", "requestStatus", bool_or("resolved"), 0, count(*) FROM "UserRequestQueue" GROUP BY 1, 2;

-- The Users list's tabs (000 section 7 GET users, inactive false or true): their sizes, kept by triggers on
-- PortalUser, for the unfiltered page's total.
CREATE TABLE "PortalUserCount" (
  "inactive" boolean NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("inactive", "slot")
);

-- Only a change of tab moves a count: other updates (a sign-in, a new phone number) add nothing.
CREATE FUNCTION "portal_user_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "PortalUserCount" AS c ("inactive", "slot", "n")
    SELECT "inactive", pg_backend_pid() % 16, count(*) FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT ("inactive", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "PortalUserCount" AS c ("inactive", "slot", "n")
    SELECT "inactive", pg_backend_pid() % 16, -count(*) FROM old_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT ("inactive", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSE
    INSERT INTO "PortalUserCount" AS c ("inactive", "slot", "n")
    SELECT d."inactive", pg_backend_pid() % 16, sum(d."n") FROM (
      SELECT n."inactive", 1 AS "n" FROM new_rows n JOIN old_rows o ON o."id" = n."id" WHERE o."inactive" <> n."inactive"
      UNION ALL
      SELECT o."inactive", -1 FROM new_rows n JOIN old_rows o ON o."id" = n."id" WHERE o."inactive" <> n."inactive"
    ) d GROUP BY 1 ORDER BY 1
    ON CONFLICT ("inactive", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  END IF\073
  RETURN NULL\073
END ';

CREATE TRIGGER "PortalUser_count_ins" AFTER INSERT ON "PortalUser"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_user_count"();
CREATE TRIGGER "PortalUser_count_upd" AFTER UPDATE ON "PortalUser"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "portal_user_count"();
CREATE TRIGGER "PortalUser_count_del" AFTER DELETE ON "PortalUser"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_user_count"();

INSERT INTO "PortalUserCount" SELECT "inactive", 0, count(*) FROM "PortalUser" GROUP BY 1;

-- The audit trail: its size (rows are never edited or deleted, by design) ...
CREATE TABLE "AuditEventCount" (
  "slot" smallint PRIMARY KEY,
  "n" bigint NOT NULL
);

CREATE FUNCTION "audit_event_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "AuditEventCount" AS c ("slot", "n")
  SELECT pg_backend_pid() % 16, count(*) FROM new_rows HAVING count(*) > 0
  ON CONFLICT ("slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  RETURN NULL\073
END ';

CREATE TRIGGER "AuditEvent_count_ins" AFTER INSERT ON "AuditEvent"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_count"();

INSERT INTO "AuditEventCount" SELECT 0, count(*) FROM "AuditEvent";

-- ... its default order (at, then id, newest first), covering for deep pages ...
CREATE INDEX "AuditEvent_at_id_idx" ON "AuditEvent" ("at", "id");
-- ... and its free-text filter (action or workflow id contains the text, or the entity id is it).
ALTER TABLE "AuditEvent" ADD COLUMN "searchText" text GENERATED ALWAYS AS (
  lower("action"::text || E'\n' || coalesce("workflowId"::text, ''))
) STORED;
CREATE INDEX "AuditEvent_searchText_trgm_idx" ON "AuditEvent" USING GIN ("searchText" gin_trgm_ops);
CREATE INDEX "AuditEvent_entityId_idx" ON "AuditEvent" ("entityId");

-- The access-modification report streams its rows oldest first in batches (keyset on sysdat, id).
CREATE INDEX "AccessModRequest_sysdat_id_idx" ON "AccessModRequest" ("sysdat", "id");
