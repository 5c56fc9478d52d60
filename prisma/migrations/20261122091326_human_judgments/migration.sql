-- CreateTable
CREATE TABLE "human_judgment" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetKey" TEXT NOT NULL,
    "scoreId" TEXT,
    "runId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "note" TEXT,
    "reason" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "human_judgment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "human_judgment_history" (
    "id" TEXT NOT NULL,
    "judgmentId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "human_judgment_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "human_judgment_videoId_idx" ON "human_judgment"("videoId");

-- CreateIndex
CREATE INDEX "human_judgment_projectId_reviewerId_idx" ON "human_judgment"("projectId", "reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "human_judgment_targetKey_reviewerId_key" ON "human_judgment"("targetKey", "reviewerId");

-- CreateIndex
CREATE INDEX "human_judgment_history_judgmentId_version_idx" ON "human_judgment_history"("judgmentId", "version");

-- AddForeignKey
ALTER TABLE "human_judgment_history" ADD CONSTRAINT "human_judgment_history_judgmentId_fkey" FOREIGN KEY ("judgmentId") REFERENCES "human_judgment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- History is append-only: an UPDATE of a history row changes nothing.
-- (A rule rather than a trigger: Prisma's WebAssembly engine splits migrations at semicolons.)
CREATE RULE human_judgment_history_no_update AS ON UPDATE TO "human_judgment_history" DO INSTEAD NOTHING;
