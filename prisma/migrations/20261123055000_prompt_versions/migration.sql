-- AlterTable
ALTER TABLE "judge_run" ADD COLUMN     "promptVersionIds" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "prompt_version" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "templateId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_version_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prompt_version_projectId_templateId_createdAt_idx" ON "prompt_version"("projectId", "templateId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "prompt_version_projectId_templateId_hash_key" ON "prompt_version"("projectId", "templateId", "hash");

-- AddForeignKey
ALTER TABLE "prompt_version" ADD CONSTRAINT "prompt_version_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Versions are append-only: an UPDATE of a version changes nothing (runs name them; their hashes are in step results and the cache).
-- (A rule rather than a trigger: Prisma's WebAssembly engine splits migrations at semicolons.)
CREATE RULE prompt_version_no_update AS ON UPDATE TO "prompt_version" DO INSTEAD NOTHING;
