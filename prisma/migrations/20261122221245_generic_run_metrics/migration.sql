-- Generic per-subject headline metrics: one row per (run, video, item, metric) instead of
-- run_video's hallucination-only columns scoreS/scoreD/scoreI/overall/verdict. Existing values are
-- copied over (verdict true → 1, false → 0; a NULL gets no row) before the columns are dropped.

-- CreateTable
CREATE TABLE "run_metric" (
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL DEFAULT '',
    "metric" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "run_metric_pkey" PRIMARY KEY ("runId","videoId","itemId","metric")
);

-- Backfill from run_video (every run so far is a hallucination run, whose metrics are S, D, I, overall, verdict)
INSERT INTO "run_metric" ("runId", "videoId", "itemId", "metric", "value")
SELECT rv."runId", rv."videoId", '', m."metric", m."value"
FROM "run_video" rv
CROSS JOIN LATERAL (VALUES
    ('S', rv."scoreS"),
    ('D', rv."scoreD"),
    ('I', rv."scoreI"),
    ('overall', rv."overall"),
    ('verdict', CASE WHEN rv."verdict" IS NULL THEN NULL WHEN rv."verdict" THEN 1.0 ELSE 0.0 END)
) AS m("metric", "value")
WHERE m."value" IS NOT NULL;

-- CreateIndex (after the backfill: one sorted build instead of row-by-row inserts)
CREATE INDEX "run_metric_runId_metric_value_videoId_idx" ON "run_metric"("runId", "metric", "value", "videoId");

-- AddForeignKey
ALTER TABLE "run_metric" ADD CONSTRAINT "run_metric_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_metric" ADD CONSTRAINT "run_metric_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- DropIndex
DROP INDEX "run_video_runId_overall_idx";

-- DropIndex
DROP INDEX "run_video_runId_scoreD_idx";

-- DropIndex
DROP INDEX "run_video_runId_scoreI_idx";

-- DropIndex
DROP INDEX "run_video_runId_scoreS_idx";

-- AlterTable
ALTER TABLE "run_video" DROP COLUMN "overall",
DROP COLUMN "scoreD",
DROP COLUMN "scoreI",
DROP COLUMN "scoreS",
DROP COLUMN "verdict";
