-- CreateTable
CREATE TABLE "qa_candidate_restore" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "filter" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "restoredById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qa_candidate_restore_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "qa_candidate_restore_itemId_createdAt_idx" ON "qa_candidate_restore"("itemId", "createdAt");

-- AddForeignKey
ALTER TABLE "qa_candidate_restore" ADD CONSTRAINT "qa_candidate_restore_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
