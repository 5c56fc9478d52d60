-- The video list's dimension filter at 200,000 videos (npm run bench:browse): the filter reads
-- `dimensions @> ARRAY[d]`, which this GIN index answers with a bitmap of that dimension's videos;
-- `d = ANY(dimensions)` could only be tested row by row over every video of the project.

-- CreateIndex
CREATE INDEX "video_dimensions_idx" ON "video" USING GIN ("dimensions" array_ops);
