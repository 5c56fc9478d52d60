-- Spans: labelled stretches of a video by reviewers, label sets, judge runs and the gold (lib/spans),
-- and each video's frame presentation times that frame indices and seconds are converted with.
CREATE TYPE "SpanAuthorKind" AS ENUM ('reviewer', 'label_set', 'judge', 'gold');

ALTER TABLE "project" ADD COLUMN "spanLabels" JSONB NOT NULL DEFAULT '[]';

CREATE TABLE "video_frame_times" (
    "videoId" TEXT NOT NULL,
    "timesS" DOUBLE PRECISION[],
    "endS" DOUBLE PRECISION NOT NULL,
    "variable" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_frame_times_pkey" PRIMARY KEY ("videoId")
);

CREATE TABLE "span" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "itemId" TEXT NOT NULL DEFAULT '',
    "startFrame" INTEGER NOT NULL,
    "endFrame" INTEGER NOT NULL,
    "startS" DOUBLE PRECISION NOT NULL,
    "endS" DOUBLE PRECISION NOT NULL,
    "boxes" JSONB NOT NULL DEFAULT '[]',
    "note" TEXT NOT NULL DEFAULT '',
    "authorKind" "SpanAuthorKind" NOT NULL,
    "authorId" TEXT NOT NULL,
    "labelSetId" TEXT,
    "runId" TEXT,
    "queueId" TEXT,
    "withdrawn" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "span_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "span_history" (
    "id" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "changedBy" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "span_history_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "span_videoId_task_idx" ON "span"("videoId", "task");
CREATE INDEX "span_projectId_task_label_idx" ON "span"("projectId", "task", "label");
CREATE INDEX "span_projectId_authorId_idx" ON "span"("projectId", "authorId");
CREATE INDEX "span_runId_idx" ON "span"("runId");
CREATE INDEX "span_labelSetId_idx" ON "span"("labelSetId");
CREATE INDEX "span_history_spanId_version_idx" ON "span_history"("spanId", "version");

ALTER TABLE "video_frame_times" ADD CONSTRAINT "video_frame_times_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "span" ADD CONSTRAINT "span_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "span" ADD CONSTRAINT "span_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "span" ADD CONSTRAINT "span_labelSetId_fkey" FOREIGN KEY ("labelSetId") REFERENCES "label_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "span" ADD CONSTRAINT "span_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "span_history" ADD CONSTRAINT "span_history_spanId_fkey" FOREIGN KEY ("spanId") REFERENCES "span"("id") ON DELETE CASCADE ON UPDATE CASCADE;
