-- The runs a sweep started together share a sweep id, so each of their pages links to them side by side.
ALTER TABLE "judge_run" ADD COLUMN "sweepId" TEXT;

CREATE INDEX "judge_run_sweepId_idx" ON "judge_run"("sweepId");
