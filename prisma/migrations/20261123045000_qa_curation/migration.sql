-- CreateTable
CREATE TABLE "curation_decision" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "curatorId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "edits" JSONB NOT NULL DEFAULT '{}',
    "reason" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "curation_decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "curation_decision_history" (
    "id" TEXT NOT NULL,
    "decisionId" TEXT NOT NULL,
    "curatorId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "curation_decision_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "curation_decision_projectId_curatorId_idx" ON "curation_decision"("projectId", "curatorId");

-- CreateIndex
CREATE UNIQUE INDEX "curation_decision_itemId_curatorId_key" ON "curation_decision"("itemId", "curatorId");

-- CreateIndex
CREATE INDEX "curation_decision_history_decisionId_version_idx" ON "curation_decision_history"("decisionId", "version");

-- AddForeignKey
ALTER TABLE "curation_decision" ADD CONSTRAINT "curation_decision_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "curation_decision_history" ADD CONSTRAINT "curation_decision_history_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "curation_decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;
