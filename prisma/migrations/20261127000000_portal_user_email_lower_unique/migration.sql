-- Issue 21 case 4: one portal user per address, whatever its case (sign-in finds people by either spelling,
-- and two approvals racing for one address must not both land). Registrations may repeat an address (a denied
-- person applies again): only PortalUser is constrained.
--
-- Case-duplicates already stored: the migration stops, naming them (ids and the lower-cased address), and
-- changes nothing. Which of two accounts keeps the address is a decision for User Support, not for a migration:
-- correct or merge them (Users -> the user -> Details), then run the migration again.
-- Prisma runs a migration split at every semicolon, so the block is an escape string whose statement ends are
-- written as the octal escape 073.
DO E'
DECLARE
  duplicates text\073
BEGIN
  SELECT string_agg(format(''%s (portal users %s)'', address, ids), '' | '') INTO duplicates
  FROM (
    SELECT lower("email") AS address, string_agg("id"::text, '', '' ORDER BY "id") AS ids
    FROM "PortalUser" GROUP BY lower("email") HAVING count(*) > 1
  ) d\073
  IF duplicates IS NOT NULL THEN
    RAISE EXCEPTION ''PortalUser addresses that differ only in case: %. Correct them, then migrate again.'', duplicates\073
  END IF\073
END';

CREATE UNIQUE INDEX "PortalUser_email_lower_key" ON "PortalUser" (lower("email"));
