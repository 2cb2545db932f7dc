-- The LAOs of an access record (prisma/src/record-laos.ts) look up the LAO of each of its AOs: one index probe
-- per AO of the record instead of a scan of every relation, for each record of a campaign's snapshot.
CREATE INDEX "SiteRelation_siteCode_active_idx" ON "SiteRelation"("siteCode") WHERE "active";
