-- Versioned run defaults (issue 38 section 3): each save of a project's defaults for a pipeline is a new version,
-- with who, when and the alignment that applied it; a run records the version its settings came from.
-- AlterTable
ALTER TABLE "judge_run" ADD COLUMN     "settingsVersionId" TEXT;

-- CreateTable
CREATE TABLE "pipeline_settings_version" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pipeline" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "thresholds" JSONB NOT NULL DEFAULT '{}',
    "alignmentRunId" TEXT,
    "note" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pipeline_settings_version_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pipeline_settings_version_projectId_pipeline_number_key" ON "pipeline_settings_version"("projectId", "pipeline", "number");

-- AddForeignKey
ALTER TABLE "pipeline_settings_version" ADD CONSTRAINT "pipeline_settings_version_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
