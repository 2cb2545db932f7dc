-- The audit trail's free-text total at millions of rows (issue 24 Growth). The filter matches a row whose action
-- or workflow id contains the text, or whose entity id is the text. Counting the matches row by row took 73 ms
-- for a word in 1 % of 5,000,000 rows, and seconds for a common action such as APPROVED. Actions are few (some
-- dozens), so their rows are counted per action, and the total is (api/src/features/audit/list-sql.ts)
--   the kept counts of the actions that contain the text
--   + the rows whose workflow id contains it and whose action does not (their own trigram index)
--   + the rows whose entity id is it and which match neither.
-- Only the last two are counted row by row, and they are few unless the text is in many workflow ids.

CREATE TABLE "AuditActionCount" (
  "action" varchar(64) NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("action", "slot")
);

-- The insert trigger of the audit trail's size also counts per action, in the writer's slot (its backend pid
-- modulo 16, as for every kept count), actions in one order so concurrent writers never deadlock.
CREATE OR REPLACE FUNCTION "audit_event_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "AuditEventCount" AS c ("slot", "n")
  SELECT pg_backend_pid() % 16, count(*) FROM new_rows HAVING count(*) > 0
  ON CONFLICT ("slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  INSERT INTO "AuditActionCount" AS c ("action", "slot", "n")
  SELECT "action", pg_backend_pid() % 16, count(*) FROM new_rows GROUP BY 1 ORDER BY 1
  ON CONFLICT ("action", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  RETURN NULL\073
END ';

INSERT INTO "AuditActionCount" ("action", "slot", "n") SELECT "action", 0, count(*) FROM "AuditEvent" GROUP BY 1;

CREATE INDEX "AuditEvent_workflowId_trgm_idx" ON "AuditEvent" USING GIN ((lower(coalesce("workflowId", ''))) gin_trgm_ops);
