-- Every write to the tables behind what a person sees of the dashboard's resources announces itself on the
-- channel dashboard_resources_changed (issue 23 Speed: each API process keeps the dashboard's items by set of
-- portal roles, and which file a package's path names, in memory, and drops them on these notifications). A
-- person's own portal roles are read on every call, so PortalUserRole is not among them. One notification per
-- statement, delivered at commit.

-- Prisma runs a migration split at every semicolon, quoted or not: statement ends in the bodies are the octal
-- escape 073.
CREATE FUNCTION "dashboard_resources_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''dashboard_resources_changed'', TG_TABLE_NAME)\073
  RETURN NULL\073
END
';

DO E'
DECLARE
  t text\073
BEGIN
  FOREACH t IN ARRAY ARRAY[''DashboardItem'', ''DashboardItemPortalRole'', ''ResourceCategory'', ''PortalRole'',
                           ''ElearningFile''] LOOP
    EXECUTE format(''CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I ''
                   ''FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_resources_changed_notify"()'',
                   t || ''_dashboard_resources_changed'', t)\073
  END LOOP\073
END
';
