-- CreateTable
CREATE TABLE "rubric_task" (
    "id" TEXT NOT NULL,
    "key" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "archivedAt" TIMESTAMP(3),
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rubric_task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rubric_version" (
    "id" TEXT NOT NULL,
    "rubricTaskId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "hash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rubric_version_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rubric_task_key_key" ON "rubric_task"("key");

-- CreateIndex
CREATE INDEX "rubric_task_projectId_createdAt_idx" ON "rubric_task"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "rubric_task_projectId_name_key" ON "rubric_task"("projectId", "name");

-- CreateIndex
CREATE INDEX "rubric_version_rubricTaskId_hash_idx" ON "rubric_version"("rubricTaskId", "hash");

-- CreateIndex
CREATE UNIQUE INDEX "rubric_version_rubricTaskId_number_key" ON "rubric_version"("rubricTaskId", "number");

-- AddForeignKey
ALTER TABLE "rubric_task" ADD CONSTRAINT "rubric_task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rubric_version" ADD CONSTRAINT "rubric_version_rubricTaskId_fkey" FOREIGN KEY ("rubricTaskId") REFERENCES "rubric_task"("id") ON DELETE CASCADE ON UPDATE CASCADE;
