-- Every order of the long lists flat at a million rows (docs/decisions.md, "Every sort order has its index").
-- A page in an order without an index of its own read and sorted the whole list (330-680 ms at 1,000,000
-- queue rows): each order now has a B-tree whose key is exactly the statement's ORDER BY, so a page is the
-- first (or, past the middle, the last: shared/deep-page.ts) 25 entries of one index.
--
-- The queue (api/src/features/requests/queue-sql.ts) orders by the sort column (nulls last in both
-- directions), then newest first ("sysdat" DESC NULLS LAST, "id" DESC) whatever the direction. A backward
-- scan reverses every key, the tie-breaker too, so one index cannot serve both directions of a column: each
-- direction has its own. They include what the page's inner statement reads and tests (the row's kind, its
-- status and whether it is resolved), so the status views and the open rows stay index-only walks.
-- "requestStatus" ascending is served by "UserRequestQueue_status_sysdat_idx", "sysdat" descending by
-- "UserRequestQueue_sysdat_idx".

CREATE INDEX "UserRequestQueue_sysdat_asc_idx" ON "UserRequestQueue" ("sysdat" ASC NULLS LAST, "id" DESC)
  INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_requestStatus_desc_idx" ON "UserRequestQueue"
  ("requestStatus" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_dchng_asc_idx" ON "UserRequestQueue"
  ("dchng" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_dchng_desc_idx" ON "UserRequestQueue"
  ("dchng" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_lastModifiedBy_asc_idx" ON "UserRequestQueue"
  ("lastModifiedBy" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_lastModifiedBy_desc_idx" ON "UserRequestQueue"
  ("lastModifiedBy" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_requestType_asc_idx" ON "UserRequestQueue"
  ("requestType" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_requestType_desc_idx" ON "UserRequestQueue"
  ("requestType" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_userRequestType_asc_idx" ON "UserRequestQueue"
  ("userRequestType" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_userRequestType_desc_idx" ON "UserRequestQueue"
  ("userRequestType" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_sysaidTicket_asc_idx" ON "UserRequestQueue"
  ("sysaidTicket" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_sysaidTicket_desc_idx" ON "UserRequestQueue"
  ("sysaidTicket" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_firstName_asc_idx" ON "UserRequestQueue"
  ("firstName" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_firstName_desc_idx" ON "UserRequestQueue"
  ("firstName" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_lastName_asc_idx" ON "UserRequestQueue"
  ("lastName" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_lastName_desc_idx" ON "UserRequestQueue"
  ("lastName" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_email_asc_idx" ON "UserRequestQueue"
  ("email" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_email_desc_idx" ON "UserRequestQueue"
  ("email" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_organizationName_asc_idx" ON "UserRequestQueue"
  ("organizationName" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");
CREATE INDEX "UserRequestQueue_organizationName_desc_idx" ON "UserRequestQueue"
  ("organizationName" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType", "requestStatus", "resolved");

-- The open rows sorted by status: "resolved" follows the status, so the whole-queue index of that order walks
-- every resolved row before the first open one. The open rows have their own (small) index of that order.
CREATE INDEX "UserRequestQueue_pending_requestStatus_asc_idx" ON "UserRequestQueue"
  ("requestStatus" ASC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType") WHERE NOT "resolved";
CREATE INDEX "UserRequestQueue_pending_requestStatus_desc_idx" ON "UserRequestQueue"
  ("requestStatus" DESC NULLS LAST, "sysdat" DESC NULLS LAST, "id" DESC) INCLUDE ("userRequestType") WHERE NOT "resolved";

-- The Users list orders by the sort column, then the id, both in the sort's direction: one (inactive, column,
-- id) index per column serves both directions, as 20261125000000_users_list_indexes does for the names.
CREATE INDEX "PortalUser_inactive_organizationName_id_idx" ON "PortalUser" ("inactive", "organizationName", "id");
CREATE INDEX "PortalUser_inactive_phoneNumber_id_idx" ON "PortalUser" ("inactive", "phoneNumber", "id");

-- The audit trail orders the same way (the column, then the id, in one direction). The (entityId, id) index
-- also serves the entity filter, so the entityId index alone goes.
DROP INDEX "AuditEvent_entityId_idx";
CREATE INDEX "AuditEvent_actorUsername_id_idx" ON "AuditEvent" ("actorUsername", "id");
CREATE INDEX "AuditEvent_entityType_id_idx" ON "AuditEvent" ("entityType", "id");
CREATE INDEX "AuditEvent_entityId_id_idx" ON "AuditEvent" ("entityId", "id");
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent" ("action", "id");

-- The Users list's site sorts (AO Member IDs, LAO Affiliations) ordered by an expression: the sorted codes of
-- the user's current access records, read per user, so a page computed it for every user of the tab and
-- sorted them all (about 10 s at 1,000,000 users). The person row now keeps both keys, written with the access
-- records they come from (statement triggers below, in the same transaction as the write, so the next page
-- sees it), and an (inactive, key, id) index serves both directions. The value is the expression the list
-- showed and sorted by, and the schema does not list these columns (Prisma never writes them).
ALTER TABLE "PortalUser" ADD COLUMN "siteCodesKey" text[] NOT NULL DEFAULT '{}',
  ADD COLUMN "laoIdsKey" text[] NOT NULL DEFAULT '{}';

CREATE FUNCTION "portal_user_site_keys"("ids" integer[]) RETURNS void LANGUAGE sql AS E'
  UPDATE "PortalUser" u SET "siteCodesKey" = k."siteCodes", "laoIdsKey" = k."laoIds"
  FROM (SELECT p."id",
      ARRAY(SELECT DISTINCT c FROM "UserAccess" a CROSS JOIN unnest(a."siteCodes") c
        WHERE a."portalUserId" = p."id" AND NOT a."inactive" ORDER BY c) AS "siteCodes",
      ARRAY(SELECT DISTINCT c FROM "UserAccess" a CROSS JOIN unnest(a."laoIds") c
        WHERE a."portalUserId" = p."id" AND NOT a."inactive" ORDER BY c) AS "laoIds"
    FROM "PortalUser" p WHERE p."id" = ANY("ids")) k
  WHERE u."id" = k."id" AND (u."siteCodesKey", u."laoIdsKey") IS DISTINCT FROM (k."siteCodes", k."laoIds")
';

-- Only the users whose current sites may have changed: a record added or removed, or one whose sites, state
-- or owner changed (not the many writes of notice and expiry times).
CREATE FUNCTION "user_access_site_keys"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM "portal_user_site_keys"(ARRAY(SELECT DISTINCT "portalUserId" FROM new_rows))\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM "portal_user_site_keys"(ARRAY(SELECT DISTINCT "portalUserId" FROM old_rows))\073
  ELSE
    PERFORM "portal_user_site_keys"(ARRAY(
      SELECT unnest(ARRAY[o."portalUserId", n."portalUserId"]) FROM old_rows o JOIN new_rows n ON n."id" = o."id"
      WHERE (o."siteCodes", o."laoIds", o."inactive", o."portalUserId")
        IS DISTINCT FROM (n."siteCodes", n."laoIds", n."inactive", n."portalUserId")))\073
  END IF\073
  RETURN NULL\073
END ';

CREATE TRIGGER "UserAccess_site_keys_ins" AFTER INSERT ON "UserAccess"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_access_site_keys"();
CREATE TRIGGER "UserAccess_site_keys_upd" AFTER UPDATE ON "UserAccess"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_access_site_keys"();
CREATE TRIGGER "UserAccess_site_keys_del" AFTER DELETE ON "UserAccess"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_access_site_keys"();

SELECT "portal_user_site_keys"(ARRAY(SELECT DISTINCT "portalUserId" FROM "UserAccess" WHERE NOT "inactive"));

CREATE INDEX "PortalUser_inactive_siteCodesKey_id_idx" ON "PortalUser" ("inactive", "siteCodesKey", "id");
CREATE INDEX "PortalUser_inactive_laoIdsKey_id_idx" ON "PortalUser" ("inactive", "laoIdsKey", "id");
