-- Queues over captions: an item is a video, or one judged item (a caption) of a video.
ALTER TABLE "review_queue_item" ADD COLUMN "itemId" TEXT NOT NULL DEFAULT '';

DROP INDEX "review_queue_item_queueId_videoId_key";

CREATE UNIQUE INDEX "review_queue_item_queueId_videoId_itemId_key" ON "review_queue_item"("queueId", "videoId", "itemId");
