-- AlterTable
ALTER TABLE "llm_call" ADD COLUMN     "reasoning" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'answered',
ADD COLUMN     "usageKnown" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "llm_call_runId_videoId_status_idx" ON "llm_call"("runId", "videoId", "status");
