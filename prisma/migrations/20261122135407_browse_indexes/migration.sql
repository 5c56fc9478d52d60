-- CreateIndex
CREATE INDEX "score_runId_category_videoId_value_idx" ON "score"("runId", "category", "videoId", "value");

-- CreateIndex
CREATE INDEX "video_projectId_relativePath_id_idx" ON "video"("projectId", "relativePath", "id");

-- CreateIndex
CREATE INDEX "video_projectId_dimensions_idx" ON "video"("projectId", "dimensions");
