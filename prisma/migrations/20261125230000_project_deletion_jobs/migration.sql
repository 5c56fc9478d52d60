-- Project deletion as a worker's job (issue 39 section 3): the project is hidden while a worker deletes it in
-- batches; the deletion row outlives it; storage keys of deleted rows wait in storage_garbage until their objects
-- are gone, so a process killed between a commit and the removal leaves no orphan.
-- AlterTable
ALTER TABLE "project" ADD COLUMN     "deletingAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "project_deletion" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "projectName" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "counts" JSONB NOT NULL,
    "members" JSONB NOT NULL,
    "videosTotal" INTEGER NOT NULL,
    "videosDeleted" INTEGER NOT NULL DEFAULT 0,
    "storageRemoved" INTEGER NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "project_deletion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "storage_garbage" (
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_garbage_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "project_deletion_projectId_key" ON "project_deletion"("projectId");

-- CreateIndex
CREATE INDEX "project_deletion_requestedById_createdAt_idx" ON "project_deletion"("requestedById", "createdAt");

-- CreateIndex
CREATE INDEX "storage_garbage_createdAt_idx" ON "storage_garbage"("createdAt");
