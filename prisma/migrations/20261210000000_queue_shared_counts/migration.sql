-- The review queue's filtered total at a million rows (issue 24 Growth). The OR filter of 000 section 7 matches a
-- row whose text contains the filter, or whose status or kind it names. Counting the matches row by row took
-- about 50 ms for a word in 1 % of 1,000,000 requests (each match rechecked on its heap page) and about half a
-- second for a status name such as 'approved'. Most rows share their organisation and their last modifier
-- (a reviewer resolves thousands of requests, an organisation files thousands), so, as the audit trail counts
-- per action (20261209000000_audit_action_counts), the queue's rows are counted per kind, status and
-- "sharedText" (organisation and last modifier), and the total is (api/src/features/requests/queue-sql.ts)
--   the kept counts of the groups whose shared text contains the filter or whose status or kind it names
--   + the rows of the other groups whose own text contains it (names, email, ticket, dates: the trigram
--     index of "searchText", which no longer holds the organisation and the last modifier).
-- Only the second part is counted row by row, and a word is rarely in many people's names or emails.

-- A row's own text: what the trigger functions of 20261202000000_growth_read_models store in "searchText".
-- They still pass the organisation and the last modifier, which now live in "sharedText" only.
CREATE OR REPLACE FUNCTION "user_request_search_text"(
  "firstName" text, "lastName" text, "email" text, "organizationName" text, "sysaidTicket" text,
  "lastModifiedBy" text, "sysdat" timestamp, "dchng" timestamp
) RETURNS text LANGUAGE sql STABLE AS E'
  SELECT lower("firstName" || E''\\n'' || "lastName" || E''\\n'' || "email" || E''\\n'' || "sysaidTicket" || E''\\n'' ||
    to_char("sysdat", ''MM/DD/YYYY FMHH12:MI AM'') || E''\\n'' || to_char("dchng", ''MM/DD/YYYY FMHH12:MI AM''))
';

UPDATE "UserRequestQueue" SET "searchText" = "user_request_search_text"("firstName", "lastName", "email",
  "organizationName", "sysaidTicket", "lastModifiedBy", "sysdat", "dchng");

-- What many rows share, lower-cased, one field per line.
ALTER TABLE "UserRequestQueue" ADD COLUMN "sharedText" text
  GENERATED ALWAYS AS (lower("organizationName" || E'\n' || "lastModifiedBy")) STORED;

CREATE INDEX "UserRequestQueue_sharedText_trgm_idx" ON "UserRequestQueue" USING GIN ("sharedText" gin_trgm_ops);

-- The slot a row was counted in (its inserting backend's pid modulo 16, as for every kept count). The row leaves
-- its group from the same slot, so a group's slot returns to 0 when its rows are gone and is then removed: the
-- open groups are many and short-lived (a new request's last modifier is its requester), and counting them out
-- in other slots would leave a +1 and a -1 behind for each, for good. The trigger functions of
-- 20261202000000_growth_read_models insert without a column list, so the column takes its default (the rows
-- already there take the value of the migration's backend).
ALTER TABLE "UserRequestQueue" ADD COLUMN "countSlot" smallint NOT NULL DEFAULT (pg_backend_pid() % 16);

CREATE TABLE "UserRequestQueueSharedCount" (
  "userRequestType" text NOT NULL,
  "requestStatus" text NOT NULL,
  "resolved" boolean NOT NULL,
  "sharedText" text NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("userRequestType", "requestStatus", "sharedText", "slot")
);

CREATE INDEX "UserRequestQueueSharedCount_sharedText_trgm_idx" ON "UserRequestQueueSharedCount"
  USING GIN ("sharedText" gin_trgm_ops);

-- Kept by the queue table's own triggers, groups in one order so concurrent writers never deadlock within a
-- statement. An update (a person's new organisation, written by "user_request_queue_person") moves its rows
-- from their old group to their new one, in their own slot. A slot left at 0 is removed.
CREATE FUNCTION "user_request_queue_shared_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "UserRequestQueueSharedCount" AS c ("userRequestType", "requestStatus", "resolved", "sharedText", "slot", "n")
    SELECT "userRequestType", "requestStatus", bool_or("resolved"), "sharedText", "countSlot", count(*)
    FROM new_rows GROUP BY 1, 2, 4, 5 ORDER BY 1, 2, 4, 5
    ON CONFLICT ("userRequestType", "requestStatus", "sharedText", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
    RETURN NULL\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "UserRequestQueueSharedCount" AS c ("userRequestType", "requestStatus", "resolved", "sharedText", "slot", "n")
    SELECT "userRequestType", "requestStatus", bool_or("resolved"), "sharedText", "countSlot", -count(*)
    FROM old_rows GROUP BY 1, 2, 4, 5 ORDER BY 1, 2, 4, 5
    ON CONFLICT ("userRequestType", "requestStatus", "sharedText", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSE
    INSERT INTO "UserRequestQueueSharedCount" AS c ("userRequestType", "requestStatus", "resolved", "sharedText", "slot", "n")
    SELECT "userRequestType", "requestStatus", bool_or("resolved"), "sharedText", "countSlot", sum(d)
    FROM (SELECT "userRequestType", "requestStatus", "resolved", "sharedText", "countSlot", 1 AS d FROM new_rows
      UNION ALL
      SELECT "userRequestType", "requestStatus", "resolved", "sharedText", "countSlot", -1 FROM old_rows) moved
    GROUP BY 1, 2, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 4, 5
    ON CONFLICT ("userRequestType", "requestStatus", "sharedText", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  END IF\073
  DELETE FROM "UserRequestQueueSharedCount" c
    USING (SELECT DISTINCT "userRequestType", "requestStatus", "sharedText", "countSlot" FROM old_rows) o
    WHERE c."userRequestType" = o."userRequestType" AND c."requestStatus" = o."requestStatus"
      AND c."sharedText" = o."sharedText" AND c."slot" = o."countSlot" AND c."n" = 0\073
  RETURN NULL\073
END ';

CREATE TRIGGER "UserRequestQueue_shared_count_ins" AFTER INSERT ON "UserRequestQueue"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_shared_count"();
CREATE TRIGGER "UserRequestQueue_shared_count_upd" AFTER UPDATE ON "UserRequestQueue"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "user_request_queue_shared_count"();
CREATE TRIGGER "UserRequestQueue_shared_count_del" AFTER DELETE ON "UserRequestQueue"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_request_queue_shared_count"();

INSERT INTO "UserRequestQueueSharedCount"
SELECT "userRequestType", "requestStatus", bool_or("resolved"), "sharedText", "countSlot", count(*)
FROM "UserRequestQueue" GROUP BY 1, 2, 4, 5;
