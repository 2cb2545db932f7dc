-- The Users list wildcard (spec 000 section 7, GET users) as one trigram index over the person fields it
-- searches, lower-cased and joined by line breaks (a filter is one line, so a match stays inside one field):
-- PostgreSQL reads one index and evaluates one LIKE per row instead of five ILIKEs. It replaces the five
-- per-column trigram indexes of 20261125000000_users_list_indexes.
CREATE INDEX "PortalUser_search_trgm_idx" ON "PortalUser" USING GIN ((lower(
  "firstName"::text || E'\n' || "lastName"::text || E'\n' || "email"::text || E'\n' ||
  "organizationName"::text || E'\n' || "phoneNumber"::text
)) gin_trgm_ops);

DROP INDEX "PortalUser_firstName_trgm_idx";
DROP INDEX "PortalUser_lastName_trgm_idx";
DROP INDEX "PortalUser_email_trgm_idx";
DROP INDEX "PortalUser_organizationName_trgm_idx";
DROP INDEX "PortalUser_phoneNumber_trgm_idx";
