-- Large video deletions as a worker's job (issue 39 section 3): a deletion of more videos than a request deletes
-- inline is queued and deleted in batches, with progress and cancellation.
-- CreateTable
CREATE TABLE "video_deletion" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "videoIds" TEXT[],
    "runIds" TEXT[],
    "queueIds" TEXT[],
    "counts" JSONB NOT NULL,
    "videosTotal" INTEGER NOT NULL,
    "videosDeleted" INTEGER NOT NULL DEFAULT 0,
    "storageRemoved" INTEGER NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "video_deletion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "video_deletion_projectId_createdAt_idx" ON "video_deletion"("projectId", "createdAt");

-- AddForeignKey
ALTER TABLE "video_deletion" ADD CONSTRAINT "video_deletion_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
