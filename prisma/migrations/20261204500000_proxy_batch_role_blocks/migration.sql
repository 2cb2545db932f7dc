-- Issue 23 (001 §2.7, §4): a proxy batch may carry more than one role block, and every selected user gets one
-- request per block, filed in order. A batch's items become one per (user, block): "blockNum" names the block
-- (1-based, the index in the batch's "accessControls"), and every existing item is its batch's only block.
ALTER TABLE "ProxyBatchItem" ADD COLUMN "blockNum" INTEGER NOT NULL DEFAULT 1;
DROP INDEX "ProxyBatchItem_batchId_portalUserId_key";
CREATE UNIQUE INDEX "ProxyBatchItem_batchId_portalUserId_blockNum_key" ON "ProxyBatchItem"("batchId", "portalUserId", "blockNum");
