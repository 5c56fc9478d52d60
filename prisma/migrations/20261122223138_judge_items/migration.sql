-- CreateTable
CREATE TABLE "item_set" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT,
    "referenceSetId" TEXT,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "importedById" TEXT NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "citation" TEXT,

    CONSTRAINT "item_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "item" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "setId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "model" TEXT,
    "referenceItemId" TEXT,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "item_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "item_set_projectId_kind_importedAt_idx" ON "item_set"("projectId", "kind", "importedAt");

-- CreateIndex
CREATE INDEX "item_set_referenceSetId_idx" ON "item_set"("referenceSetId");

-- CreateIndex
CREATE INDEX "item_projectId_kind_model_group_idx" ON "item"("projectId", "kind", "model", "group");

-- CreateIndex
CREATE INDEX "item_videoId_idx" ON "item"("videoId");

-- CreateIndex
CREATE INDEX "item_referenceItemId_idx" ON "item"("referenceItemId");

-- CreateIndex
CREATE UNIQUE INDEX "item_setId_externalId_key" ON "item"("setId", "externalId");

-- AddForeignKey
ALTER TABLE "item_set" ADD CONSTRAINT "item_set_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_set" ADD CONSTRAINT "item_set_referenceSetId_fkey" FOREIGN KEY ("referenceSetId") REFERENCES "item_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item" ADD CONSTRAINT "item_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item" ADD CONSTRAINT "item_setId_fkey" FOREIGN KEY ("setId") REFERENCES "item_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item" ADD CONSTRAINT "item_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item" ADD CONSTRAINT "item_referenceItemId_fkey" FOREIGN KEY ("referenceItemId") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
