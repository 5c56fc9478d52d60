-- A "scores" queue asks for every score ("full"), or first which categories are present in the video and
-- then values only for those ("presence").
ALTER TABLE "review_queue" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'full';
