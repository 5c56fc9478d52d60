-- Label sets: named, read-only groups of human judgments imported from a file.
CREATE TABLE "label_set" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "citation" TEXT NOT NULL DEFAULT '',
    "importedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "annotators" TEXT[],

    CONSTRAINT "label_set_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "label_set_projectId_name_key" ON "label_set"("projectId", "name");

ALTER TABLE "label_set" ADD CONSTRAINT "label_set_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "human_judgment" ADD COLUMN "labelSetId" TEXT;

CREATE INDEX "human_judgment_labelSetId_idx" ON "human_judgment"("labelSetId");

ALTER TABLE "human_judgment" ADD CONSTRAINT "human_judgment_labelSetId_fkey" FOREIGN KEY ("labelSetId") REFERENCES "label_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
