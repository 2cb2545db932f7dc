-- A reviewer's page reads one campaign's items in person order and skips the other pools' items and the
-- decided ones: with the role in the key and the decision and pools included, that walk stays in the index
-- (an index-only scan once the table is vacuumed) and only the page's rows are read from the table.
DROP INDEX "AccessReviewItem_campaign_person_idx";
CREATE INDEX "AccessReviewItem_campaign_person_idx" ON "AccessReviewItem"("campaignId", "lastName", "firstName", "portalUserId", "roleName", "id")
  INCLUDE ("decision", "reviewLaoIds");
