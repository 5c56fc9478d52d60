-- (projectId, model) widened with the list's default order (relativePath, id), so a model's first
-- page does not walk the path order past every other model's videos.

-- DropIndex
DROP INDEX "video_projectId_model_idx";

-- CreateIndex
CREATE INDEX "video_projectId_model_relativePath_id_idx" ON "video"("projectId", "model", "relativePath", "id");
