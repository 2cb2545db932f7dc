-- Issue 24 (metrics): the outbox backlog and its oldest age are read at every /metrics scrape. This partial index
-- holds only the mails not yet sent, so the read stays small however many mails were ever sent.
CREATE INDEX "OutboundMail_sending_createdAt_idx" ON "OutboundMail" ("createdAt") WHERE status = 'SENDING';
