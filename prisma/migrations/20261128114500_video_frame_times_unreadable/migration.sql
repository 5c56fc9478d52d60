-- A video whose file the frame-times job read and found no frames in keeps the reason, so a request answers it (422)
-- instead of waiting for times that will never come, and no worker reads the file again.
ALTER TABLE "video_frame_times" ADD COLUMN "unreadable" TEXT;
