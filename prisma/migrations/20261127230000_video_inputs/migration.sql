-- Judges that watch the video: an endpoint's input mode and token rule, a run's mode, budget and estimate, and what
-- each call showed the judge.
ALTER TABLE "judge_endpoint" ADD COLUMN "inputMode" TEXT NOT NULL DEFAULT 'images',
ADD COLUMN "tokenRule" JSONB;

ALTER TABLE "judge_run" ADD COLUMN "inputMode" TEXT NOT NULL DEFAULT 'images',
ADD COLUMN "budgetUsd" DOUBLE PRECISION,
ADD COLUMN "estimate" JSONB;

ALTER TABLE "llm_call" ADD COLUMN "saw" JSONB,
ADD COLUMN "bytesSent" INTEGER NOT NULL DEFAULT 0;
