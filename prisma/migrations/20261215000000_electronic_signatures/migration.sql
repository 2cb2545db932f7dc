-- Electronic signatures on access decisions (docs/decisions.md "Electronic signatures", 21 CFR Part 11
-- sections 11.50, 11.70, 11.200). Tickets are short-lived and used once, signatures are only ever added.

CREATE TABLE "SignatureTicket" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  "tokenHash" CHAR(64) NOT NULL,
  "sessionId" VARCHAR(64) NOT NULL,
  "signerUserId" INTEGER NOT NULL,
  "action" VARCHAR(32) NOT NULL,
  "meaning" VARCHAR(64) NOT NULL,
  "method" VARCHAR(16) NOT NULL,
  "decisionDigest" CHAR(64) NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt" TIMESTAMPTZ(3) NOT NULL,
  "usedAt" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "SignatureTicket_tokenHash_key" ON "SignatureTicket"("tokenHash");
CREATE INDEX "SignatureTicket_sessionId_idx" ON "SignatureTicket"("sessionId");
CREATE INDEX "SignatureTicket_expiresAt_idx" ON "SignatureTicket"("expiresAt");

CREATE TABLE "Signature" (
  "id" BIGSERIAL NOT NULL PRIMARY KEY,
  "ticketId" UUID NOT NULL,
  "signerUserId" INTEGER NOT NULL,
  "signerUsername" VARCHAR(64) NOT NULL,
  "signerName" VARCHAR(91) NOT NULL,
  "signedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "action" VARCHAR(32) NOT NULL,
  "meaning" VARCHAR(64) NOT NULL,
  "method" VARCHAR(16) NOT NULL,
  "entityType" VARCHAR(32) NOT NULL,
  "entityId" VARCHAR(64) NOT NULL,
  "entityVersion" INTEGER,
  "content" JSONB NOT NULL,
  "digest" CHAR(64) NOT NULL
);
CREATE UNIQUE INDEX "Signature_ticketId_key" ON "Signature"("ticketId");
CREATE INDEX "Signature_entityType_entityId_idx" ON "Signature"("entityType", "entityId");
CREATE INDEX "Signature_signerUserId_idx" ON "Signature"("signerUserId");

CREATE TRIGGER "Signature_append_only" BEFORE UPDATE OR DELETE ON "Signature"
  FOR EACH ROW EXECUTE FUNCTION "audit_append_only"();
CREATE TRIGGER "Signature_no_truncate" BEFORE TRUNCATE ON "Signature"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_append_only"();
