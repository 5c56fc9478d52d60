-- The video list under load: a trigram index for prompt substring search (ILIKE '%text%') and a
-- (projectId, id) index for keyset reads of videos without a sort value and for unfiltered counts.
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: a database owner may create
-- it without being a superuser.

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "video_projectId_id_idx" ON "video"("projectId", "id");

-- CreateIndex
CREATE INDEX "video_prompt_idx" ON "video" USING GIN ("prompt" gin_trgm_ops);
