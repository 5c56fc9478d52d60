-- CreateEnum
CREATE TYPE "VideoStatus" AS ENUM ('pending_extraction', 'ready', 'failed');

-- CreateEnum
CREATE TYPE "UploadStatus" AS ENUM ('open', 'complete', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "video" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "fileName" TEXT NOT NULL,
    "relativePath" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "status" "VideoStatus" NOT NULL DEFAULT 'pending_extraction',
    "error" TEXT,
    "prompt" TEXT,
    "promptTruncated" TEXT,
    "dimensions" TEXT[],
    "model" TEXT,
    "sampleIndex" INTEGER,
    "seed" TEXT,
    "extra" JSONB NOT NULL DEFAULT '{}',
    "matchedPrompt" BOOLEAN NOT NULL DEFAULT false,
    "durationS" DOUBLE PRECISION,
    "fps" DOUBLE PRECISION,
    "width" INTEGER,
    "height" INTEGER,
    "codec" TEXT,
    "container" TEXT,
    "frameCount" INTEGER,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "video_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prompt_list" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "entries" JSONB NOT NULL,
    "entryCount" INTEGER NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_list_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "frame_set" (
    "id" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "identity" TEXT NOT NULL,
    "parameters" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "decoder" TEXT,
    "frameCount" INTEGER NOT NULL,
    "keyFrameCount" INTEGER NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "frame_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "frame" (
    "id" TEXT NOT NULL,
    "frameSetId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "timestampS" DOUBLE PRECISION NOT NULL,
    "isKeyFrame" BOOLEAN NOT NULL,
    "cluster" INTEGER,
    "storageKey" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,

    CONSTRAINT "frame_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "upload_session" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "relativePath" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "receivedBytes" BIGINT NOT NULL DEFAULT 0,
    "sha256" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "status" "UploadStatus" NOT NULL DEFAULT 'open',
    "error" TEXT,
    "videoId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "upload_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "video_projectId_createdAt_idx" ON "video"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "video_projectId_status_idx" ON "video"("projectId", "status");

-- CreateIndex
CREATE INDEX "video_projectId_model_idx" ON "video"("projectId", "model");

-- CreateIndex
CREATE UNIQUE INDEX "video_projectId_sha256_key" ON "video"("projectId", "sha256");

-- CreateIndex
CREATE INDEX "prompt_list_projectId_idx" ON "prompt_list"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "frame_set_videoId_identity_key" ON "frame_set"("videoId", "identity");

-- CreateIndex
CREATE UNIQUE INDEX "frame_frameSetId_index_key" ON "frame"("frameSetId", "index");

-- CreateIndex
CREATE INDEX "upload_session_projectId_status_idx" ON "upload_session"("projectId", "status");

-- AddForeignKey
ALTER TABLE "video" ADD CONSTRAINT "video_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_list" ADD CONSTRAINT "prompt_list_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "frame_set" ADD CONSTRAINT "frame_set_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "frame" ADD CONSTRAINT "frame_frameSetId_fkey" FOREIGN KEY ("frameSetId") REFERENCES "frame_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upload_session" ADD CONSTRAINT "upload_session_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
