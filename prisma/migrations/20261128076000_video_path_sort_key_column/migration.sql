-- The video list sorts and pages by the path's natural-order key. Computed in the query, the key's function (two
-- global regex replaces, about 90 µs a row) ran for every row a plan passed: a deep page by OFFSET or a broad
-- prompt search took seconds at 200,000 videos. The key is stored instead, a generated column the database keeps
-- (computed for every existing video as the column is added, and again whenever a path changes), in the "C"
-- collation so it compares byte by byte in any locale; the list's indexes hold the column itself.
ALTER TABLE "video" ADD COLUMN "pathSortKey" TEXT COLLATE "C" GENERATED ALWAYS AS (video_path_sort_key("relativePath")) STORED;

DROP INDEX "video_projectId_path_sort_key_id_idx";
DROP INDEX "video_projectId_model_path_sort_key_id_idx";
CREATE INDEX "video_projectId_pathSortKey_id_idx" ON "video" ("projectId", "pathSortKey", "id");
CREATE INDEX "video_projectId_model_pathSortKey_id_idx" ON "video" ("projectId", "model", "pathSortKey", "id");
