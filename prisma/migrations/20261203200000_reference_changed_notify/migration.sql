-- Every write to the tables behind the reference lists announces itself on the channel reference_changed
-- (issue 24: each API process keeps the lists in memory and drops them on these notifications, so a system or
-- study role configured on one process, or a data load, is served by every process at once). The payload is
-- the table's name. One notification per statement: PostgreSQL delivers them at commit and folds identical
-- payloads of one transaction into one.

-- Prisma runs a migration split at every semicolon, quoted or not, so the body is an escape string whose
-- statement ends are written as the octal escape 073.
CREATE FUNCTION "reference_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''reference_changed'', TG_TABLE_NAME)\073
  RETURN NULL\073
END
';

-- One statement trigger per table behind the lists: "<table>_reference_changed".
DO E'
DECLARE
  t text\073
BEGIN
  FOREACH t IN ARRAY ARRAY[''StudyRole'', ''StudyRoleSystem'', ''SystemAccess'', ''Site'', ''Study'', ''SiteRelation'',
                           ''Country'', ''State''] LOOP
    EXECUTE format(''CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I ''
                   ''FOR EACH STATEMENT EXECUTE FUNCTION "reference_changed_notify"()'', t || ''_reference_changed'', t)\073
  END LOOP\073
END
';
