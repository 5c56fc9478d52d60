-- CreateTable
CREATE TABLE "curation_queue" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "candidateSetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "curatorsPerQuestion" INTEGER NOT NULL DEFAULT 1,
    "scope" TEXT NOT NULL DEFAULT 'kept',
    "assigneeIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "guidelines" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "curation_queue_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "curation_queue_projectId_createdAt_idx" ON "curation_queue"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "curation_queue_candidateSetId_idx" ON "curation_queue"("candidateSetId");

-- AddForeignKey
ALTER TABLE "curation_queue" ADD CONSTRAINT "curation_queue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "curation_queue" ADD CONSTRAINT "curation_queue_candidateSetId_fkey" FOREIGN KEY ("candidateSetId") REFERENCES "item_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
