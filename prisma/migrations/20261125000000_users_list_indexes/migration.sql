-- Indexes of the Users list (spec 000 section 7, GET users, issue 11 Speed). The wildcard filter is a
-- case-insensitive contains over the person columns, which B-tree indexes cannot serve: trigram GIN indexes
-- (pg_trgm) can, one per column so that PostgreSQL combines them with a bitmap OR. The site columns are
-- matched through the Site table (a few hundred rows) and then through GIN indexes on the current access
-- records arrays. The page order is the sort column then the id, within one tab (inactive false or true).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "PortalUser_firstName_trgm_idx" ON "PortalUser" USING GIN ("firstName" gin_trgm_ops);
CREATE INDEX "PortalUser_lastName_trgm_idx" ON "PortalUser" USING GIN ("lastName" gin_trgm_ops);
CREATE INDEX "PortalUser_email_trgm_idx" ON "PortalUser" USING GIN ("email" gin_trgm_ops);
CREATE INDEX "PortalUser_organizationName_trgm_idx" ON "PortalUser" USING GIN ("organizationName" gin_trgm_ops);
CREATE INDEX "PortalUser_phoneNumber_trgm_idx" ON "PortalUser" USING GIN ("phoneNumber" gin_trgm_ops);

CREATE INDEX "UserAccess_siteCodes_current_idx" ON "UserAccess" USING GIN ("siteCodes") WHERE NOT "inactive";
CREATE INDEX "UserAccess_laoIds_current_idx" ON "UserAccess" USING GIN ("laoIds") WHERE NOT "inactive";

CREATE INDEX "PortalUser_inactive_lastName_id_idx" ON "PortalUser" ("inactive", "lastName", "id");
CREATE INDEX "PortalUser_inactive_firstName_id_idx" ON "PortalUser" ("inactive", "firstName", "id");
CREATE INDEX "PortalUser_inactive_email_id_idx" ON "PortalUser" ("inactive", "email", "id");
