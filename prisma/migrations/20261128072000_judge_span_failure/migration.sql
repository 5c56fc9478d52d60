-- A judge run's finished videos whose judge spans could not be kept, with why (shown on the run's page).
CREATE TABLE "judge_span_failure" (
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "judge_span_failure_pkey" PRIMARY KEY ("runId", "videoId")
);

CREATE INDEX "judge_span_failure_videoId_idx" ON "judge_span_failure"("videoId");

ALTER TABLE "judge_span_failure" ADD CONSTRAINT "judge_span_failure_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "judge_span_failure" ADD CONSTRAINT "judge_span_failure_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;
