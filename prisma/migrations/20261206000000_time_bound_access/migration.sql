-- Issue 25 (time-bound access): an access record may end on a calendar day (inclusive, in NETWORK_TIME_ZONE).
-- The expiry schedule reads the active records past or near their end, and the removals whose mail is pending,
-- through two partial indexes that hold only those rows, so each run stays small however many records exist.
ALTER TABLE "UserAccess" ADD COLUMN "accessEndDate" DATE,
  ADD COLUMN "expiryNoticeSentAt" TIMESTAMP(3),
  ADD COLUMN "expiredAt" TIMESTAMP(3),
  ADD COLUMN "expiryMailSentAt" TIMESTAMP(3);

CREATE INDEX "UserAccess_active_accessEndDate_idx" ON "UserAccess" ("accessEndDate", "id")
  WHERE "inactive" = false AND "accessEndDate" IS NOT NULL;

CREATE INDEX "UserAccess_expiry_mail_pending_idx" ON "UserAccess" ("id")
  WHERE "expiredAt" IS NOT NULL AND "expiryMailSentAt" IS NULL;
