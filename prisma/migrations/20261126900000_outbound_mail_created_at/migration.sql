-- Issue 21 case 6: an outbound mail's secrets (its set-password link) derive from the server key, the row's key
-- and this time, so every attempt renders the same link. Rows written before it take the migration's time: a
-- mail still SENDING then renders one new link on its next attempt, and never again.
ALTER TABLE "OutboundMail" ADD COLUMN "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
