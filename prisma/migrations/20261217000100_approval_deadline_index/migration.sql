-- 'Awaiting my approval' in deadline order (docs/decisions.md "Approval policies"): a page reads the open stages
-- soonest first and stops after it, however many are open.
CREATE INDEX "AccessModRequest_approval_deadline_idx" ON "AccessModRequest"("approvalDeadline", "id")
  WHERE "approvalStage" IS NOT NULL;
