-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'done', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "StepStatus" AS ENUM ('pending', 'running', 'done', 'failed', 'parse_failed', 'skipped', 'cancelled');

-- CreateTable
CREATE TABLE "judge_endpoint" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKeyEncrypted" TEXT,
    "imageDetail" TEXT NOT NULL DEFAULT 'auto',
    "temperature" DOUBLE PRECISION,
    "maxConcurrency" INTEGER NOT NULL DEFAULT 4,
    "requestsPerMinute" INTEGER,
    "timeoutSeconds" INTEGER NOT NULL DEFAULT 120,
    "structuredOutput" BOOLEAN NOT NULL DEFAULT true,
    "pricePer1kInput" DOUBLE PRECISION,
    "pricePer1kOutput" DOUBLE PRECISION,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "judge_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_run" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pipeline" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "endpointSnapshot" JSONB NOT NULL DEFAULT '{}',
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "judge_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_video" (
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "frameSetId" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "summary" JSONB,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "run_video_pkey" PRIMARY KEY ("runId","videoId")
);

-- CreateTable
CREATE TABLE "step_result" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "scopeIndex" INTEGER NOT NULL,
    "status" "StepStatus" NOT NULL DEFAULT 'pending',
    "templateId" TEXT NOT NULL,
    "templateHash" TEXT,
    "output" JSONB,
    "rawText" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "step_result_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "score" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "stepResultId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "scopeIndex" INTEGER NOT NULL,
    "category" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "score_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_call" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "stepResultId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "responseText" TEXT,
    "finishReason" TEXT,
    "httpStatus" INTEGER,
    "error" TEXT,
    "isRepair" BOOLEAN NOT NULL DEFAULT false,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latencyMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "llm_call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "response_cache" (
    "key" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "responseText" TEXT NOT NULL,
    "finishReason" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "response_cache_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "judge_endpoint_projectId_idx" ON "judge_endpoint"("projectId");

-- CreateIndex
CREATE INDEX "judge_run_projectId_createdAt_idx" ON "judge_run"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "run_video_videoId_idx" ON "run_video"("videoId");

-- CreateIndex
CREATE INDEX "step_result_runId_status_idx" ON "step_result"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "step_result_runId_videoId_stepId_scopeIndex_key" ON "step_result"("runId", "videoId", "stepId", "scopeIndex");

-- CreateIndex
CREATE INDEX "score_videoId_idx" ON "score"("videoId");

-- CreateIndex
CREATE UNIQUE INDEX "score_runId_videoId_stepId_scopeIndex_category_key" ON "score"("runId", "videoId", "stepId", "scopeIndex", "category");

-- CreateIndex
CREATE INDEX "llm_call_runId_idx" ON "llm_call"("runId");

-- CreateIndex
CREATE INDEX "llm_call_stepResultId_idx" ON "llm_call"("stepResultId");

-- AddForeignKey
ALTER TABLE "judge_endpoint" ADD CONSTRAINT "judge_endpoint_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_run" ADD CONSTRAINT "judge_run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_run" ADD CONSTRAINT "judge_run_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "judge_endpoint"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_video" ADD CONSTRAINT "run_video_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_video" ADD CONSTRAINT "run_video_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step_result" ADD CONSTRAINT "step_result_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score" ADD CONSTRAINT "score_stepResultId_fkey" FOREIGN KEY ("stepResultId") REFERENCES "step_result"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "llm_call" ADD CONSTRAINT "llm_call_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "llm_call" ADD CONSTRAINT "llm_call_stepResultId_fkey" FOREIGN KEY ("stepResultId") REFERENCES "step_result"("id") ON DELETE CASCADE ON UPDATE CASCADE;
