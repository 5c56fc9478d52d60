-- Batch API runs (lib/judge/batch): the endpoint setting, the run's mode, its batches and their lines.

-- AlterTable
ALTER TABLE "judge_endpoint" ADD COLUMN "supportsBatchApi" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "judge_run" ADD COLUMN "batchMode" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "judge_batch" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'preparing',
    "providerBatchId" TEXT,
    "inputFileId" TEXT,
    "requestCount" INTEGER NOT NULL DEFAULT 0,
    "completedCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "ingestedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "judge_batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch_request" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "stepResultId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "cacheKey" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "batchId" TEXT,
    "result" JSONB,
    "error" TEXT,
    "errorKind" TEXT,
    "errorStatus" INTEGER,
    "errorExcerpt" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "batch_request_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "judge_batch_runId_number_key" ON "judge_batch"("runId", "number");

-- CreateIndex
CREATE INDEX "batch_request_runId_batchId_idx" ON "batch_request"("runId", "batchId");

-- CreateIndex
CREATE INDEX "batch_request_batchId_idx" ON "batch_request"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "batch_request_stepResultId_cacheKey_key" ON "batch_request"("stepResultId", "cacheKey");

-- AddForeignKey
ALTER TABLE "judge_batch" ADD CONSTRAINT "judge_batch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_request" ADD CONSTRAINT "batch_request_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_request" ADD CONSTRAINT "batch_request_stepResultId_fkey" FOREIGN KEY ("stepResultId") REFERENCES "step_result"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_request" ADD CONSTRAINT "batch_request_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "judge_batch"("id") ON DELETE SET NULL ON UPDATE CASCADE;
