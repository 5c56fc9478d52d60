-- AlterTable
ALTER TABLE "score" ADD COLUMN     "itemId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "step_result" ADD COLUMN     "itemId" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "run_item" (
    "runId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "run_item_pkey" PRIMARY KEY ("runId","itemId")
);

-- CreateIndex
CREATE INDEX "run_item_itemId_idx" ON "run_item"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "run_item_runId_videoId_position_key" ON "run_item"("runId", "videoId", "position");

-- CreateIndex
CREATE INDEX "step_result_runId_itemId_idx" ON "step_result"("runId", "itemId");

-- AddForeignKey
ALTER TABLE "run_item" ADD CONSTRAINT "run_item_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_item" ADD CONSTRAINT "run_item_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
