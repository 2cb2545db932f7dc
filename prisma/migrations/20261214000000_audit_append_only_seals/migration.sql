-- The audit trail shows any tampering (docs/decisions.md "A tamper-evident audit trail", 21 CFR Part 11
-- section 11.10(e)). Rows are only ever added: UPDATE, DELETE and TRUNCATE of "AuditEvent" and of its seals
-- are refused. A superuser can still bypass triggers (session_replication_role), which is what the seals are
-- for: each seal covers exact id ranges of rows, chains a SHA-256 over the previous seal's hash and each row's
-- canonical digest, and is signed (Ed25519) by a key the database never sees.

-- (Semicolons inside the body are written \073: the migration runner splits statements on them.)
CREATE FUNCTION "audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION ''the audit trail is append-only: % on % refused'', TG_OP, TG_TABLE_NAME
    USING ERRCODE = ''insufficient_privilege''\073
END ';

CREATE TRIGGER "AuditEvent_append_only" BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "audit_append_only"();
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_append_only"();

-- One seal per sealing step, in chain order (id). "ranges" are the exact, ascending, disjoint id ranges of the
-- rows it covers ([[from, to], ...], inclusive): ids are not in commit order and gaps are legitimate.
-- "rowDigests" holds the first 8 bytes of each covered row's digest in id order, so a verifier names the row
-- that changed. "pendingGaps" carries the ids not yet seen below the newest sealed id ([[from, to, firstSeenAt
-- epoch ms], ...]): a transaction still in flight fills them later and the next seal covers its rows.
CREATE TABLE "AuditSeal" (
  "id" BIGINT NOT NULL PRIMARY KEY,
  "sealedAt" TIMESTAMPTZ(3) NOT NULL,
  "format" SMALLINT NOT NULL,
  "ranges" JSONB NOT NULL,
  "rowCount" INTEGER NOT NULL,
  "maxId" BIGINT NOT NULL,
  "complete" BOOLEAN NOT NULL,
  "firstAt" TIMESTAMPTZ(3),
  "lastAt" TIMESTAMPTZ(3),
  "rowDigests" BYTEA NOT NULL,
  "pendingGaps" JSONB NOT NULL,
  "prevHash" CHAR(64) NOT NULL,
  "hash" CHAR(64) NOT NULL,
  "keyId" VARCHAR(32) NOT NULL,
  "signature" TEXT NOT NULL,
  -- A chain has no forks: two sealers can never both extend the same seal.
  CONSTRAINT "AuditSeal_prevHash_key" UNIQUE ("prevHash")
);

CREATE TRIGGER "AuditSeal_append_only" BEFORE UPDATE OR DELETE ON "AuditSeal"
  FOR EACH ROW EXECUTE FUNCTION "audit_append_only"();
CREATE TRIGGER "AuditSeal_no_truncate" BEFORE TRUNCATE ON "AuditSeal"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_append_only"();
