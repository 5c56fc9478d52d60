-- AlterTable
ALTER TABLE "run_video" ADD COLUMN     "judgedWith" JSONB;

-- CreateTable
CREATE TABLE "video_edit" (
    "id" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "editorId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_edit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "video_edit_videoId_at_idx" ON "video_edit"("videoId", "at");

-- AddForeignKey
ALTER TABLE "video_edit" ADD CONSTRAINT "video_edit_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Runs created before this migration judged (or will judge) with the video's fields as they are now.
UPDATE "run_video" rv SET "judgedWith" = jsonb_build_object('prompt', v."prompt", 'dimensions', to_jsonb(v."dimensions"), 'model', v."model")
FROM "video" v WHERE v."id" = rv."videoId" AND rv."judgedWith" IS NULL;
