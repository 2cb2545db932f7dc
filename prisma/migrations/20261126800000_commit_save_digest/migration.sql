-- Issue 21 case 1: the commit's idempotency key `<workflowId>:<version>` also records what was saved (a
-- SHA-256 of the save), so a retry of the same save is answered from it while a different save under the same
-- key is refused as superseded. Rows written before have no digest and keep the old answer (committed).
ALTER TABLE "AuditEvent" ADD COLUMN "idempotencyDigest" CHAR(64);
