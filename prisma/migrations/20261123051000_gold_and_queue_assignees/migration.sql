-- AlterTable
ALTER TABLE "review_queue" ADD COLUMN     "assigneeIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "gold_judgment" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL DEFAULT '',
    "stepId" TEXT NOT NULL DEFAULT '',
    "scopeIndex" INTEGER NOT NULL DEFAULT 0,
    "frameSetId" TEXT NOT NULL DEFAULT '',
    "targetKey" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "adjudicatorId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gold_judgment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gold_judgment_history" (
    "id" TEXT NOT NULL,
    "goldId" TEXT NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gold_judgment_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gold_judgment_videoId_idx" ON "gold_judgment"("videoId");

-- CreateIndex
CREATE UNIQUE INDEX "gold_judgment_projectId_targetKey_key" ON "gold_judgment"("projectId", "targetKey");

-- CreateIndex
CREATE INDEX "gold_judgment_history_goldId_version_idx" ON "gold_judgment_history"("goldId", "version");

-- AddForeignKey
ALTER TABLE "gold_judgment" ADD CONSTRAINT "gold_judgment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gold_judgment_history" ADD CONSTRAINT "gold_judgment_history_goldId_fkey" FOREIGN KEY ("goldId") REFERENCES "gold_judgment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
