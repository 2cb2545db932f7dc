-- The review queue's filtered page at a million rows (issue 24 Growth). A filter that matches only through
-- shared values (20261210000000_queue_shared_counts: organisation, last modifier, status and kind names) is read
-- by walking the view's index in the default order (newest first) and keeping the matching rows
-- (api/src/features/requests/queue-sql.ts). Reading each walked row from the table cost about 2 microseconds
-- (2.6 ms for a word in 2 % of 1,000,000 rows), so the three indexes of that order also hold what the walk
-- tests, and the walk reads them alone (0.3 ms). The shared text is short (an organisation and a username).

DROP INDEX "UserRequestQueue_sysdat_idx";
CREATE INDEX "UserRequestQueue_sysdat_idx" ON "UserRequestQueue" ("sysdat" DESC NULLS LAST, "id" DESC)
  INCLUDE ("userRequestType", "requestStatus", "sharedText");

DROP INDEX "UserRequestQueue_pending_sysdat_idx";
CREATE INDEX "UserRequestQueue_pending_sysdat_idx" ON "UserRequestQueue" ("sysdat" DESC NULLS LAST, "id" DESC)
  INCLUDE ("userRequestType", "requestStatus", "sharedText") WHERE NOT "resolved";

DROP INDEX "UserRequestQueue_status_sysdat_idx";
CREATE INDEX "UserRequestQueue_status_sysdat_idx" ON "UserRequestQueue"
  ("requestStatus", "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "sharedText");
