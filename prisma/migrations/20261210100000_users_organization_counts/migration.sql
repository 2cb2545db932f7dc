-- The Users list's filtered total at a million users (issue 24 Growth), as the review queue's
-- (20261210000000_queue_shared_counts). The wildcard of 000 section 7 GET users matches a user whose person
-- fields, site codes or LAO codes contain the filter. Counting the matches row by row took about 45 ms for a word
-- in 1 % of 1,000,000 users (each rechecked on its heap page). Users share their organisation (a site's staff,
-- hundreds or thousands each), so users are counted per tab and organisation, and the total is
-- (api/src/features/users/list-sql.ts)
--   the kept counts of the organisations that contain the filter
--   + the users of the other organisations whose own fields (names, email, phone: "searchText", which no longer
--     holds the organisation) or current sites match.
-- Only the second part is counted row by row, and a word is rarely in many people's names or emails.

ALTER TABLE "PortalUser" DROP COLUMN "searchText";
ALTER TABLE "PortalUser" ADD COLUMN "searchText" text GENERATED ALWAYS AS (lower(
  "firstName"::text || E'\n' || "lastName"::text || E'\n' || "email"::text || E'\n' || "phoneNumber"::text
)) STORED;
CREATE INDEX "PortalUser_searchText_trgm_idx" ON "PortalUser" USING GIN ("searchText" gin_trgm_ops);
CREATE INDEX "PortalUser_organizationName_trgm_idx" ON "PortalUser"
  USING GIN ((lower("organizationName"::text)) gin_trgm_ops);

CREATE TABLE "PortalUserOrganizationCount" (
  "inactive" boolean NOT NULL,
  -- lower("organizationName"): what the filter is matched against.
  "organization" text NOT NULL,
  "slot" smallint NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("inactive", "organization", "slot")
);

CREATE INDEX "PortalUserOrganizationCount_organization_trgm_idx" ON "PortalUserOrganizationCount"
  USING GIN ("organization" gin_trgm_ops);

-- Kept in the writer's slot (its backend pid modulo 16, as for every kept count), groups in one order so
-- concurrent writers never deadlock. Only a new organisation or tab moves a user: other updates (a sign-in, a
-- new phone number) add nothing.
CREATE FUNCTION "portal_user_organization_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "PortalUserOrganizationCount" AS c ("inactive", "organization", "slot", "n")
    SELECT "inactive", lower("organizationName"::text), pg_backend_pid() % 16, count(*) FROM new_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("inactive", "organization", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "PortalUserOrganizationCount" AS c ("inactive", "organization", "slot", "n")
    SELECT "inactive", lower("organizationName"::text), pg_backend_pid() % 16, -count(*) FROM old_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("inactive", "organization", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  ELSE
    INSERT INTO "PortalUserOrganizationCount" AS c ("inactive", "organization", "slot", "n")
    SELECT d."inactive", d."organization", pg_backend_pid() % 16, sum(d."n") FROM (
      SELECT n."inactive", lower(n."organizationName"::text) AS "organization", 1 AS "n"
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (o."inactive", lower(o."organizationName"::text)) IS DISTINCT FROM (n."inactive", lower(n."organizationName"::text))
      UNION ALL
      SELECT o."inactive", lower(o."organizationName"::text), -1
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (o."inactive", lower(o."organizationName"::text)) IS DISTINCT FROM (n."inactive", lower(n."organizationName"::text))
    ) d GROUP BY 1, 2 HAVING sum(d."n") <> 0 ORDER BY 1, 2
    ON CONFLICT ("inactive", "organization", "slot") DO UPDATE SET "n" = c."n" + excluded."n"\073
  END IF\073
  RETURN NULL\073
END ';

CREATE TRIGGER "PortalUser_organization_count_ins" AFTER INSERT ON "PortalUser"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_user_organization_count"();
CREATE TRIGGER "PortalUser_organization_count_upd" AFTER UPDATE ON "PortalUser"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "portal_user_organization_count"();
CREATE TRIGGER "PortalUser_organization_count_del" AFTER DELETE ON "PortalUser"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_user_organization_count"();

INSERT INTO "PortalUserOrganizationCount"
SELECT "inactive", lower("organizationName"::text), 0, count(*) FROM "PortalUser" GROUP BY 1, 2;
