-- The video list's metric sorts, metric filters and deep pages (page=500 by overall on 200,000 videos,
-- npm run bench:browse) read the videos' own values (itemId = ''). With itemId in the key before the
-- value they are an index-only range in value order; the older (runId, metric, value, videoId) index
-- needed a heap fetch per row to check itemId.

-- CreateIndex
CREATE INDEX "run_metric_runId_metric_itemId_value_videoId_idx" ON "run_metric"("runId", "metric", "itemId", "value", "videoId");
