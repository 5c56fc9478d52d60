-- AlterTable
ALTER TABLE "judge_run" ADD COLUMN     "ensemble" JSONB,
ADD COLUMN     "memberIndex" INTEGER,
ADD COLUMN     "parentRunId" TEXT,
ADD COLUMN     "sampling" JSONB;

-- CreateTable
CREATE TABLE "score_dispersion" (
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL DEFAULT '',
    "stepId" TEXT NOT NULL,
    "scopeIndex" INTEGER NOT NULL,
    "category" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "sd" DOUBLE PRECISION NOT NULL,
    "range" DOUBLE PRECISION NOT NULL,
    "entropy" DOUBLE PRECISION,
    "unstable" BOOLEAN NOT NULL,
    "members" JSONB NOT NULL,

    CONSTRAINT "score_dispersion_pkey" PRIMARY KEY ("runId","videoId","stepId","scopeIndex","category")
);

-- CreateIndex
CREATE INDEX "score_dispersion_runId_unstable_videoId_idx" ON "score_dispersion"("runId", "unstable", "videoId");

-- CreateIndex
CREATE INDEX "score_dispersion_videoId_idx" ON "score_dispersion"("videoId");

-- CreateIndex
CREATE INDEX "judge_run_parentRunId_idx" ON "judge_run"("parentRunId");

-- AddForeignKey
ALTER TABLE "judge_run" ADD CONSTRAINT "judge_run_parentRunId_fkey" FOREIGN KEY ("parentRunId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_dispersion" ADD CONSTRAINT "score_dispersion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_dispersion" ADD CONSTRAINT "score_dispersion_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;
