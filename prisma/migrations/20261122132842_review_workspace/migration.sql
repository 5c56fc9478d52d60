-- CreateEnum
CREATE TYPE "QueueAssignmentStatus" AS ENUM ('claimed', 'done');

-- DropIndex
DROP INDEX "human_judgment_videoId_idx";

-- AlterTable
ALTER TABLE "human_judgment" ADD COLUMN     "disagrees" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "judgeValue" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "run_video" ADD COLUMN     "overall" DOUBLE PRECISION,
ADD COLUMN     "scoreD" DOUBLE PRECISION,
ADD COLUMN     "scoreI" DOUBLE PRECISION,
ADD COLUMN     "scoreS" DOUBLE PRECISION,
ADD COLUMN     "verdict" BOOLEAN;

-- CreateTable
CREATE TABLE "review_queue" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "categories" TEXT[],
    "filter" JSONB NOT NULL DEFAULT '{}',
    "reviewersPerItem" INTEGER NOT NULL DEFAULT 1,
    "blind" BOOLEAN NOT NULL DEFAULT false,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "review_queue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_queue_item" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "doneCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "review_queue_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_queue_assignment" (
    "itemId" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "status" "QueueAssignmentStatus" NOT NULL DEFAULT 'claimed',
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "review_queue_assignment_pkey" PRIMARY KEY ("itemId","reviewerId")
);

-- CreateIndex
CREATE INDEX "review_queue_projectId_createdAt_idx" ON "review_queue"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "review_queue_item_queueId_doneCount_position_idx" ON "review_queue_item"("queueId", "doneCount", "position");

-- CreateIndex
CREATE UNIQUE INDEX "review_queue_item_queueId_videoId_key" ON "review_queue_item"("queueId", "videoId");

-- CreateIndex
CREATE INDEX "review_queue_assignment_queueId_reviewerId_status_idx" ON "review_queue_assignment"("queueId", "reviewerId", "status");

-- CreateIndex
CREATE INDEX "human_judgment_videoId_reviewerId_idx" ON "human_judgment"("videoId", "reviewerId");

-- CreateIndex
CREATE INDEX "human_judgment_runId_videoId_idx" ON "human_judgment"("runId", "videoId");

-- CreateIndex
CREATE INDEX "run_video_runId_overall_idx" ON "run_video"("runId", "overall");

-- CreateIndex
CREATE INDEX "run_video_runId_scoreS_idx" ON "run_video"("runId", "scoreS");

-- CreateIndex
CREATE INDEX "run_video_runId_scoreD_idx" ON "run_video"("runId", "scoreD");

-- CreateIndex
CREATE INDEX "run_video_runId_scoreI_idx" ON "run_video"("runId", "scoreI");

-- CreateIndex
CREATE INDEX "score_runId_category_value_idx" ON "score"("runId", "category", "value");

-- AddForeignKey
ALTER TABLE "review_queue" ADD CONSTRAINT "review_queue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queue_item" ADD CONSTRAINT "review_queue_item_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "review_queue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_queue_assignment" ADD CONSTRAINT "review_queue_assignment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "review_queue_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill the score columns of finished videos from their summaries.
UPDATE "run_video" SET "scoreS" = ("summary"->>'S')::double precision, "scoreD" = ("summary"->>'D')::double precision, "scoreI" = ("summary"->>'I')::double precision, "overall" = ("summary"->>'overall')::double precision, "verdict" = ("summary"->>'hallucination')::boolean WHERE "summary" IS NOT NULL;

-- Backfill the judge's value of existing judgments (scores, then per-video verdicts and overalls).
UPDATE "human_judgment" h SET "judgeValue" = s."value" FROM "score" s WHERE h."scoreId" = s."id";
UPDATE "human_judgment" h SET "judgeValue" = CASE WHEN (rv."summary"->>'hallucination')::boolean THEN 1 ELSE 0 END FROM "run_video" rv WHERE h."targetType" = 'verdict' AND rv."runId" = h."runId" AND rv."videoId" = h."videoId" AND rv."summary"->>'hallucination' IS NOT NULL;
UPDATE "human_judgment" h SET "judgeValue" = (rv."summary"->>'overall')::double precision FROM "run_video" rv WHERE h."targetType" = 'overall' AND rv."runId" = h."runId" AND rv."videoId" = h."videoId";
UPDATE "human_judgment" SET "disagrees" = CASE WHEN "judgeValue" IS NULL THEN false WHEN "targetType" = 'verdict' THEN "value" <> "judgeValue" WHEN "targetType" = 'overall' THEN abs("value" - "judgeValue") >= 10 ELSE abs("value" - "judgeValue") >= 2 END;
