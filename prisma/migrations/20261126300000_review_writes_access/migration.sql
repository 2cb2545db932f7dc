-- A review of an access-change request may write the same study role in several saves (001 section 2.8),
-- so the request that wrote a record no longer names one record per role: idempotency is the commit audit key.
DROP INDEX "UserAccess_sourceRequestId_roleName_key";
CREATE INDEX "UserAccess_sourceRequestId_idx" ON "UserAccess"("sourceRequestId");
