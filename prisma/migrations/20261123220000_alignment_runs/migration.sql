-- CreateTable
CREATE TABLE "alignment_run" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "rubricTaskId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "input" JSONB NOT NULL,
    "progress" JSONB NOT NULL DEFAULT '{}',
    "report" JSONB,
    "error" TEXT,
    "rubricVersionId" TEXT,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "alignment_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alignment_run_projectId_createdAt_idx" ON "alignment_run"("projectId", "createdAt");

-- AddForeignKey
ALTER TABLE "alignment_run" ADD CONSTRAINT "alignment_run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
