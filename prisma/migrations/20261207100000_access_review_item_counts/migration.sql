-- Issue 25 (access review campaigns at size): a reviewer's page of 50 items answers within 50 ms at 100,000
-- items, but counting the page's total walked every item of the campaign (about 100 ms at that size). The
-- counts of each campaign's items per reviewing pool (the exact reviewLaoIds list), decision ('' while
-- undecided) and whether the decision is the campaign's default (applied at the close) are kept here by
-- statement-level triggers on "AccessReviewItem", as the growth read models keep theirs
-- (20261202000000_growth_read_models): each writer adds to one of 16 slots (its backend pid modulo 16), the
-- count is the sum of the slots. A reviewer's unfiltered total is the sum over the pools they review, less
-- their own items (read on the index of campaign and person), and ADMIN's progress of a page of campaigns is
-- read from the same counts. Not in Prisma's schema (a table of triggers).
--
-- Prisma runs a migration split at every semicolon, quoted or not, so function bodies are escape strings whose
-- statement ends are the octal escape 073.

CREATE TABLE "AccessReviewItemCount" (
  "campaignId" integer NOT NULL,
  "reviewLaoIds" text[] NOT NULL,
  "decision" text NOT NULL,
  "defaulted" boolean NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot")
);

-- One function for the three statements: the rows a statement added count +1, the rows it removed -1, and an
-- update that changes neither the pool nor the decision (an outcome, a mail mark) nets to nothing.
CREATE FUNCTION "access_review_item_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "AccessReviewItemCount" AS c ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot", "n")
    SELECT "campaignId", coalesce("reviewLaoIds", ''{}''), coalesce("decision"::text, ''''), "defaulted",
      pg_backend_pid() % 16, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "AccessReviewItemCount" AS c ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot", "n")
    SELECT "campaignId", coalesce("reviewLaoIds", ''{}''), coalesce("decision"::text, ''''), "defaulted",
      pg_backend_pid() % 16, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSE
    INSERT INTO "AccessReviewItemCount" AS c ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot", "n")
    SELECT "campaignId", "reviewLaoIds", "decision", "defaulted", pg_backend_pid() % 16, sum(d) FROM (
      SELECT "campaignId", coalesce("reviewLaoIds", ''{}'') AS "reviewLaoIds",
        coalesce("decision"::text, '''') AS "decision", "defaulted", 1 AS d
        FROM new_rows
      UNION ALL
      SELECT "campaignId", coalesce("reviewLaoIds", ''{}''), coalesce("decision"::text, ''''), "defaulted", -1
        FROM old_rows
    ) x GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("campaignId", "reviewLaoIds", "decision", "defaulted", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  END IF\073
  RETURN NULL\073
END ';

CREATE TRIGGER "AccessReviewItem_count_ins" AFTER INSERT ON "AccessReviewItem"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "access_review_item_count"();
CREATE TRIGGER "AccessReviewItem_count_upd" AFTER UPDATE ON "AccessReviewItem"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "access_review_item_count"();
CREATE TRIGGER "AccessReviewItem_count_del" AFTER DELETE ON "AccessReviewItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "access_review_item_count"();

INSERT INTO "AccessReviewItemCount"
SELECT "campaignId", coalesce("reviewLaoIds", '{}'), coalesce("decision"::text, ''), "defaulted", 0, count(*)
FROM "AccessReviewItem" GROUP BY 1, 2, 3, 4;
